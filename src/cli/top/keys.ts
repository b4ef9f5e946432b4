/** What a key press in top asks for. */
export type TopAction = 'up' | 'down' | 'attach' | 'focus' | 'quit';

/** The actions in one chunk of raw-mode input, in order; unknown keys are ignored. */
export function parseTopKeys(input: string): TopAction[] {
  const actions: TopAction[] = [];
  for (let i = 0; i < input.length; i++) {
    const rest = input.slice(i);
    const arrow = /^\x1b[[O]([AB])/.exec(rest);
    if (arrow) {
      actions.push(arrow[1] === 'A' ? 'up' : 'down');
      i += arrow[0].length - 1;
      continue;
    }
    if (rest[0] === '\x1b') {
      const csi = /^\x1b\[[0-9;]*[~A-Za-z]/.exec(rest); // other keys: skip the whole sequence
      if (csi) i += csi[0].length - 1;
      continue;
    }
    const action = SINGLE_KEYS[input[i]!];
    if (action) actions.push(action);
  }
  return actions;
}

const SINGLE_KEYS: Record<string, TopAction> = {
  k: 'up',
  j: 'down',
  '\r': 'attach',
  '\n': 'attach',
  a: 'attach',
  f: 'focus',
  q: 'quit',
  '\x03': 'quit', // C-c in raw mode
};
