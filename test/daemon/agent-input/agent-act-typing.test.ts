import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isCancelInput, pasteBytes } from '../../../src/daemon/agent-input/typing.ts';

describe('typing a prompt', () => {
  it('wraps text in bracketed-paste marks when the program enabled them', () => {
    assert.equal(pasteBytes('two\nlines', true), '\x1b[200~two\nlines\x1b[201~');
  });

  it('removes every paste-end mark inside the text, so the text cannot end the paste early', () => {
    assert.equal(pasteBytes('a\x1b[201~b\x1b[201~c', true), '\x1b[200~abc\x1b[201~');
  });

  it('sends the text as it is when the program did not enable bracketed paste', () => {
    assert.equal(pasteBytes('plain', false), 'plain');
  });

  it('counts Escape and C-c, as key names or bare bytes, as a cancel, and nothing else', () => {
    assert.equal(isCancelInput(undefined, ['Escape']), true);
    assert.equal(isCancelInput(undefined, ['esc']), true);
    assert.equal(isCancelInput(undefined, ['C-c']), true);
    assert.equal(isCancelInput('\x03', undefined), true);
    assert.equal(isCancelInput('\x1b', undefined), true);
    assert.equal(isCancelInput('\x1b[A', ['Enter', 'C-d']), false);
    assert.equal(isCancelInput('hello', undefined), false);
  });
});
