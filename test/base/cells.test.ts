import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cutToCells, fitToCells, textCells } from '../../src/base/cells.ts';

describe('text measured in terminal cells', () => {
  it('keeps a text that fits and ends a longer one in an ellipsis within the width', () => {
    assert.equal(cutToCells('hello', 5), 'hello');
    assert.equal(cutToCells('hello world', 8), 'hello w…');
    assert.equal(cutToCells('', 3), '');
    assert.equal(cutToCells('hello', 1), '…');
    assert.equal(cutToCells('hello', 0), '');
  });

  it('counts wide characters as two cells and never splits a surrogate pair', () => {
    assert.equal(textCells('日本語'), 6);
    assert.equal(textCells('a🙂b'), 4);
    assert.equal(textCells('⎿ ✽ ⠋ done'), 10, 'box drawing, dingbats and braille spinners are one cell');
    assert.equal(cutToCells('日本語です', 6), '日本…');
    assert.equal(cutToCells('日本語', 6), '日本語');
    assert.equal(cutToCells('a🙂🙂b', 4), 'a🙂…');
    assert.equal(cutToCells('a🙂🙂b', 3), 'a…');
    assert.equal(cutToCells('⎿ done', 80), '⎿ done');
  });

  it('fits a text to exactly its width: cut, or filled with spaces', () => {
    assert.equal(fitToCells('ab', 4), 'ab  ');
    assert.equal(fitToCells('日本', 5), '日本 ');
    assert.equal(fitToCells('日本語', 5), '日本…');
    assert.equal(fitToCells('a日本', 3), 'a… ', 'a wide character that would cross the edge leaves a space');
    assert.equal(fitToCells('abc', 0), '');
  });
});
