import { createRequire } from 'node:module';

/** What the small native addon in `native/` gives: kernel facts Node has no API for. */
interface NativeAddon {
  peerCredentials(fd: number): { pid: number; uid: number; gid: number };
  acceptWaiting(fd: number, max: number): number[];
  setCloseOnExec(fd: number): void;
  closeOnExecAbove(minFd: number): number;
  setUtf8Input(fd: number): void;
  trimAllocator(): boolean;
  reduceHeap(): void;
  lockFile(fd: number): boolean;
  lockOwner(fd: number): number;
  becomeChildSubreaper(): void;
  isChildSubreaper(): boolean;
  reapChildren(keep: number[]): { reaped: number; held: boolean };
}

// Two folders deep from the package root both as src/terminal/ and as the bundle's dist/cli/.
const ADDON_PATH = new URL('../../native/build/Release/corral_native.node', import.meta.url).pathname;

let addon: NativeAddon | null = null;

/** The addon, built by node-gyp at `npm ci`; a missing build is an install error, named as such. */
function native(): NativeAddon {
  if (addon !== null) return addon;
  try {
    addon = createRequire(import.meta.url)(ADDON_PATH) as NativeAddon;
  } catch (error) {
    throw new Error(
      `the native addon is not built (${(error as Error).message.split('\n')[0]}); run \`npm ci\` or \`npx node-gyp rebuild --directory=native\``,
    );
  }
  // A build older than this source (a checkout updated without `npm ci`) lacks the newer functions:
  // say so at the first use, not when a function is first called minutes later.
  if (typeof addon.acceptWaiting !== 'function') {
    addon = null;
    throw new Error('the native addon is older than this checkout (no acceptWaiting); run `npm ci` or `npx node-gyp rebuild --directory=native`');
  }
  return addon;
}

/** The kernel's record of who is on the other end of a connected Unix socket, as of its connect(). */
export function peerCredentials(fd: number): { pid: number; uid: number } {
  const { pid, uid } = native().peerCredentials(fd);
  return { pid, uid };
}

/** Up to `max` connections waiting on the listening socket at `fd`, accepted (non-blocking, close-on-exec). */
export function acceptWaiting(fd: number, max: number): number[] {
  return native().acceptWaiting(fd, max);
}

/**
 * Marks every descriptor above stderr close-on-exec, so a child gets only the 0, 1 and 2 it is given.
 * Called just before and after every spawn: node-pty 1.1.0 returns forkpty's master without
 * FD_CLOEXEC (microsoft/node-pty#657, fixed only in 1.2.0 betas), so later panes inherited it.
 */
export function sealDescriptors(): void {
  native().closeOnExecAbove(3);
}

/**
 * Sets IUTF8 on a terminal, so its line discipline erases a whole character on backspace in
 * canonical mode. node-pty 1.1.0 sets it only when it decodes the PTY's output to strings itself.
 */
export function setUtf8Input(fd: number): void {
  native().setUtf8Input(fd);
}

/** Gives the free pages inside malloc's heaps back to the system; whether any were released. */
export function trimAllocator(): boolean {
  return native().trimAllocator();
}

/**
 * Asks V8 for a collection that gives memory back (a moderate memory-pressure notification): it marks
 * incrementally after this call returns, then shrinks the young generation to its initial size and
 * releases the pages freed. Without it a young generation grown under load (16 MiB a semi-space) keeps
 * its pages at rest: V8 shrinks it only at a collection, and at rest nothing allocates.
 */
export function reduceHeap(): void {
  native().reduceHeap();
}

/**
 * Takes a write lock on the whole file open for writing at `fd`, which the kernel holds for this
 * process until it exits or closes any descriptor of that file; false when another process holds one.
 */
export function lockFile(fd: number): boolean {
  return native().lockFile(fd);
}

/** The pid of the process that holds a lock taken by `lockFile` on the file open at `fd`; 0 when none does. */
export function lockOwner(fd: number): number {
  return native().lockOwner(fd);
}

/** Makes this process a child subreaper: what its descendants orphan becomes its child, not init's. */
export function becomeChildSubreaper(): void {
  native().becomeChildSubreaper();
}

export function isChildSubreaper(): boolean {
  return native().isChildSubreaper();
}

/**
 * Reaps every exited child of this process whose pid is not in `keep`. `held`: a kept child's exit
 * hides the ones behind it; look again once its own waiter has reaped it.
 */
export function reapChildren(keep: number[]): { reaped: number; held: boolean } {
  return native().reapChildren(keep);
}
