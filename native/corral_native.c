// What Node has no API for: a Unix socket peer's credentials (SO_PEERCRED), taking every connection
// a listening socket holds at once (libuv takes one per turn of the event loop), close-on-exec on every
// descriptor the process holds (so no child inherits another pane's PTY), a terminal's UTF-8 input
// flag (IUTF8), giving the allocator's free pages back to the system (malloc_trim), asking V8 to
// give back its heap's free pages (heap.cc), a record lock whose holder the kernel names (F_SETLK,
// F_GETLK), and becoming a child subreaper that reaps the orphans it inherits (prctl, waitid).
#define _GNU_SOURCE
#include <node_api.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <unistd.h>

#ifndef CLOSE_RANGE_CLOEXEC
#define CLOSE_RANGE_CLOEXEC (1U << 2)
#endif

static napi_value throw_errno(napi_env env, const char *what, int err) {
  char message[160];
  snprintf(message, sizeof message, "%s: %s", what, strerror(err));
  napi_throw_error(env, NULL, message);
  return NULL;
}

static int read_fd_arg(napi_env env, napi_callback_info info, int32_t *fd) {
  size_t argc = 1;
  napi_value argv[1];
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 1) return -1;
  if (napi_get_value_int32(env, argv[0], fd) != napi_ok || *fd < 0) return -1;
  return 0;
}

// peerCredentials(fd) -> { pid, uid, gid }: the peer of a connected Unix socket, as of connect().
static napi_value peer_credentials(napi_env env, napi_callback_info info) {
  int32_t fd;
  if (read_fd_arg(env, info, &fd) != 0) {
    napi_throw_type_error(env, NULL, "peerCredentials(fd): fd must be a non-negative integer");
    return NULL;
  }
  struct ucred cred;
  socklen_t length = sizeof cred;
  if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &length) != 0) return throw_errno(env, "getsockopt(SO_PEERCRED)", errno);
  napi_value result, pid, uid, gid;
  napi_create_object(env, &result);
  napi_create_int32(env, cred.pid, &pid);
  napi_create_uint32(env, cred.uid, &uid);
  napi_create_uint32(env, cred.gid, &gid);
  napi_set_named_property(env, result, "pid", pid);
  napi_set_named_property(env, result, "uid", uid);
  napi_set_named_property(env, result, "gid", gid);
  return result;
}

// acceptWaiting(fd, max) -> number[]: up to `max` connections waiting on the listening socket `fd`,
// accepted non-blocking and close-on-exec, as libuv itself accepts them. Since libuv 1.45 a server
// takes one connection per turn of the event loop, so a backlog of 256 took 256 turns. Stops at the
// first error (EAGAIN: none left; EMFILE: libuv's own accept sheds the rest).
static napi_value accept_waiting(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  int32_t fd, max;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 2 || napi_get_value_int32(env, argv[0], &fd) != napi_ok ||
      fd < 0 || napi_get_value_int32(env, argv[1], &max) != napi_ok || max < 0) {
    napi_throw_type_error(env, NULL, "acceptWaiting(fd, max): fd and max must be non-negative integers");
    return NULL;
  }
  napi_value result;
  napi_create_array(env, &result);
  uint32_t taken = 0;
  while ((int32_t)taken < max) {
    int accepted = accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (accepted < 0) {
      if (errno == EINTR || errno == ECONNABORTED) continue;
      break;
    }
    napi_value value;
    napi_create_int32(env, accepted, &value);
    napi_set_element(env, result, taken++, value);
  }
  return result;
}

// setCloseOnExec(fd): marks one descriptor close-on-exec.
static napi_value set_close_on_exec(napi_env env, napi_callback_info info) {
  int32_t fd;
  if (read_fd_arg(env, info, &fd) != 0) {
    napi_throw_type_error(env, NULL, "setCloseOnExec(fd): fd must be a non-negative integer");
    return NULL;
  }
  int flags = fcntl(fd, F_GETFD);
  if (flags == -1 || fcntl(fd, F_SETFD, flags | FD_CLOEXEC) == -1) return throw_errno(env, "fcntl(FD_CLOEXEC)", errno);
  return NULL;
}

// closeOnExecAbove(minFd) -> count: marks every open descriptor >= minFd close-on-exec.
// close_range(2) does it in one call (Linux 5.11); older kernels walk /proc/self/fd.
static napi_value close_on_exec_above(napi_env env, napi_callback_info info) {
  int32_t min_fd;
  if (read_fd_arg(env, info, &min_fd) != 0) {
    napi_throw_type_error(env, NULL, "closeOnExecAbove(minFd): minFd must be a non-negative integer");
    return NULL;
  }
  napi_value result;
#ifdef SYS_close_range
  if (syscall(SYS_close_range, (unsigned)min_fd, ~0U, CLOSE_RANGE_CLOEXEC) == 0) {
    napi_create_int32(env, -1, &result);
    return result;
  }
#endif
  DIR *dir = opendir("/proc/self/fd");
  if (dir == NULL) return throw_errno(env, "opendir(/proc/self/fd)", errno);
  int own = dirfd(dir);
  int32_t count = 0;
  struct dirent *entry;
  while ((entry = readdir(dir)) != NULL) {
    if (entry->d_name[0] < '0' || entry->d_name[0] > '9') continue;
    int fd = atoi(entry->d_name);
    if (fd < min_fd || fd == own) continue;
    int flags = fcntl(fd, F_GETFD);
    if (flags != -1 && !(flags & FD_CLOEXEC) && fcntl(fd, F_SETFD, flags | FD_CLOEXEC) == 0) count += 1;
  }
  closedir(dir);
  napi_create_int32(env, count, &result);
  return result;
}

// setUtf8Input(fd): sets IUTF8 on a terminal, so that the line discipline erases a whole UTF-8
// character on backspace in canonical mode.
static napi_value set_utf8_input(napi_env env, napi_callback_info info) {
  int32_t fd;
  if (read_fd_arg(env, info, &fd) != 0) {
    napi_throw_type_error(env, NULL, "setUtf8Input(fd): fd must be a non-negative integer");
    return NULL;
  }
  struct termios attributes;
  if (tcgetattr(fd, &attributes) != 0) return throw_errno(env, "tcgetattr", errno);
  if (attributes.c_iflag & IUTF8) return NULL;
  attributes.c_iflag |= IUTF8;
  if (tcsetattr(fd, TCSANOW, &attributes) != 0) return throw_errno(env, "tcsetattr(IUTF8)", errno);
  return NULL;
}

// trimAllocator() -> released: gives the free pages inside malloc's heaps back to the system (glibc's
// malloc keeps them otherwise); false where there is no malloc_trim or nothing was released.
static napi_value trim_allocator(napi_env env, napi_callback_info info) {
  (void)info;
  int released = 0;
#ifdef __GLIBC__
  released = malloc_trim(0);
#endif
  napi_value result;
  napi_get_boolean(env, released == 1, &result);
  return result;
}

void corral_reduce_heap(void);

// reduceHeap(): asks V8 for a memory-reducing collection (heap.cc); it runs incrementally after the call.
static napi_value reduce_heap(napi_env env, napi_callback_info info) {
  (void)env;
  (void)info;
  corral_reduce_heap();
  return NULL;
}

// lockFile(fd) -> locked: takes a write lock on the whole file open for writing at fd, held until the
// process exits or closes any descriptor of that file; false when another process holds one.
static napi_value lock_file(napi_env env, napi_callback_info info) {
  int32_t fd;
  if (read_fd_arg(env, info, &fd) != 0) {
    napi_throw_type_error(env, NULL, "lockFile(fd): fd must be a non-negative integer");
    return NULL;
  }
  struct flock lock = {.l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 0};
  int taken = fcntl(fd, F_SETLK, &lock) == 0;
  if (!taken && errno != EAGAIN && errno != EACCES) return throw_errno(env, "fcntl(F_SETLK)", errno);
  napi_value result;
  napi_get_boolean(env, taken, &result);
  return result;
}

// lockOwner(fd) -> pid: the process holding a record lock on the file open at fd (as the kernel
// records it, in this process's pid namespace), 0 when none does.
static napi_value lock_owner(napi_env env, napi_callback_info info) {
  int32_t fd;
  if (read_fd_arg(env, info, &fd) != 0) {
    napi_throw_type_error(env, NULL, "lockOwner(fd): fd must be a non-negative integer");
    return NULL;
  }
  struct flock lock = {.l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 0};
  if (fcntl(fd, F_GETLK, &lock) != 0) return throw_errno(env, "fcntl(F_GETLK)", errno);
  napi_value result;
  napi_create_int32(env, lock.l_type == F_UNLCK ? 0 : lock.l_pid, &result);
  return result;
}

// becomeChildSubreaper(): orphans of this process's descendants become its children, not init's.
static napi_value become_child_subreaper(napi_env env, napi_callback_info info) {
  (void)info;
  if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0) return throw_errno(env, "prctl(PR_SET_CHILD_SUBREAPER)", errno);
  return NULL;
}

// isChildSubreaper() -> whether this process is a child subreaper.
static napi_value is_child_subreaper(napi_env env, napi_callback_info info) {
  (void)info;
  int flag = 0;
  if (prctl(PR_GET_CHILD_SUBREAPER, &flag, 0, 0, 0) != 0) return throw_errno(env, "prctl(PR_GET_CHILD_SUBREAPER)", errno);
  napi_value result;
  napi_get_boolean(env, flag != 0, &result);
  return result;
}

// reapChildren(keep) -> { reaped, held }: reaps every exited child whose pid is not in the array
// `keep` (children another waiter reaps: node-pty waits for each pane's pid on a thread of its own).
// waitid(WNOWAIT) shows the first exited child without reaping it; when that one is kept, the
// children behind it cannot be seen: `held` says so, and the caller looks again once it is reaped.
static napi_value reap_children(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  bool is_array = false;
  uint32_t count = 0;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 1 || napi_is_array(env, argv[0], &is_array) != napi_ok ||
      !is_array || napi_get_array_length(env, argv[0], &count) != napi_ok) {
    napi_throw_type_error(env, NULL, "reapChildren(keep): keep must be an array of pids");
    return NULL;
  }
  int32_t *keep = calloc(count > 0 ? count : 1, sizeof *keep);
  if (keep == NULL) return throw_errno(env, "reapChildren", ENOMEM);
  for (uint32_t i = 0; i < count; i++) {
    napi_value element;
    if (napi_get_element(env, argv[0], i, &element) != napi_ok || napi_get_value_int32(env, element, &keep[i]) != napi_ok) keep[i] = -1;
  }
  int32_t reaped = 0;
  bool held = false;
  for (;;) {
    siginfo_t child;
    memset(&child, 0, sizeof child);
    if (waitid(P_ALL, 0, &child, WEXITED | WNOHANG | WNOWAIT) != 0) {
      if (errno == EINTR) continue;
      break; // ECHILD: no children at all
    }
    if (child.si_pid == 0) break; // none has exited
    for (uint32_t i = 0; i < count && !held; i++) held = keep[i] == child.si_pid;
    if (held) break;
    siginfo_t done;
    if (waitid(P_PID, (id_t)child.si_pid, &done, WEXITED | WNOHANG) != 0 && errno == EINTR) continue;
    reaped += 1;
  }
  free(keep);
  napi_value result, reaped_value, held_value;
  napi_create_object(env, &result);
  napi_create_int32(env, reaped, &reaped_value);
  napi_get_boolean(env, held, &held_value);
  napi_set_named_property(env, result, "reaped", reaped_value);
  napi_set_named_property(env, result, "held", held_value);
  return result;
}

static napi_value init(napi_env env, napi_value exports) {
  napi_property_descriptor properties[] = {
    {"peerCredentials", NULL, peer_credentials, NULL, NULL, NULL, napi_default, NULL},
    {"acceptWaiting", NULL, accept_waiting, NULL, NULL, NULL, napi_default, NULL},
    {"setCloseOnExec", NULL, set_close_on_exec, NULL, NULL, NULL, napi_default, NULL},
    {"closeOnExecAbove", NULL, close_on_exec_above, NULL, NULL, NULL, napi_default, NULL},
    {"setUtf8Input", NULL, set_utf8_input, NULL, NULL, NULL, napi_default, NULL},
    {"trimAllocator", NULL, trim_allocator, NULL, NULL, NULL, napi_default, NULL},
    {"reduceHeap", NULL, reduce_heap, NULL, NULL, NULL, napi_default, NULL},
    {"lockFile", NULL, lock_file, NULL, NULL, NULL, napi_default, NULL},
    {"lockOwner", NULL, lock_owner, NULL, NULL, NULL, napi_default, NULL},
    {"becomeChildSubreaper", NULL, become_child_subreaper, NULL, NULL, NULL, napi_default, NULL},
    {"isChildSubreaper", NULL, is_child_subreaper, NULL, NULL, NULL, napi_default, NULL},
    {"reapChildren", NULL, reap_children, NULL, NULL, NULL, napi_default, NULL},
  };
  napi_define_properties(env, exports, sizeof properties / sizeof properties[0], properties);
  return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, init)
