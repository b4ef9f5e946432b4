// What Node has no API for: a Unix socket peer's credentials (SO_PEERCRED), close-on-exec on every
// descriptor the process holds (so no child inherits another pane's PTY), a terminal's UTF-8 input
// flag (IUTF8), giving the allocator's free pages back to the system (malloc_trim), and asking V8 to
// give back its heap's free pages (heap.cc).
#define _GNU_SOURCE
#include <node_api.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/types.h>
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

static napi_value init(napi_env env, napi_value exports) {
  napi_property_descriptor properties[] = {
    {"peerCredentials", NULL, peer_credentials, NULL, NULL, NULL, napi_default, NULL},
    {"setCloseOnExec", NULL, set_close_on_exec, NULL, NULL, NULL, napi_default, NULL},
    {"closeOnExecAbove", NULL, close_on_exec_above, NULL, NULL, NULL, napi_default, NULL},
    {"setUtf8Input", NULL, set_utf8_input, NULL, NULL, NULL, napi_default, NULL},
    {"trimAllocator", NULL, trim_allocator, NULL, NULL, NULL, napi_default, NULL},
    {"reduceHeap", NULL, reduce_heap, NULL, NULL, NULL, napi_default, NULL},
  };
  napi_define_properties(env, exports, sizeof properties / sizeof properties[0], properties);
  return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, init)
