import { test } from 'node:test';
import assert from 'node:assert/strict';
import { encodeKeys } from '../../src/terminal/keys.ts';
import { TerminalError } from '../../src/terminal/errors.ts';

test('named keys become the bytes a terminal sends', () => {
  assert.equal(encodeKeys(['Enter', 'Escape', 'Tab', 'BSpace', 'Space']), '\r\x1b\t\x7f ');
  assert.equal(encodeKeys(['Up', 'Down', 'Right', 'Left']), '\x1b[A\x1b[B\x1b[C\x1b[D');
  assert.equal(encodeKeys(['Home', 'End', 'PageUp', 'PageDown', 'Delete']), '\x1b[H\x1b[F\x1b[5~\x1b[6~\x1b[3~');
  assert.equal(encodeKeys(['F1', 'F5', 'F12']), '\x1bOP\x1b[15~\x1b[24~');
});

test('control and alt chords', () => {
  assert.equal(encodeKeys(['C-c', 'C-a', 'C-z', 'C-D']), '\x03\x01\x1a\x04');
  assert.equal(encodeKeys(['M-x', 'M-Enter']), '\x1bx\x1b\r');
});

test('unknown keys are named in one invalid_key error', () => {
  assert.throws(
    () => encodeKeys(['Enter', 'Hyper', 'C-1']),
    (error: unknown) =>
      error instanceof TerminalError && error.code === 'invalid_key' && /"Hyper", "C-1"/.test(error.message),
  );
});

test('one printable character types itself, so an option can be picked and confirmed', () => {
  assert.equal(encodeKeys(['1', 'Enter']), '1\r');
  assert.equal(encodeKeys(['y', 'é']), 'yé');
  assert.throws(() => encodeKeys(['\x07']), (error: unknown) => error instanceof TerminalError && error.code === 'invalid_key');
});
