// agent.read {region}: a screen cut as manifest rules cut it, so that a card's tail can show what
// the agent is doing rather than its composer box (docs/protocol.md, `agent.read`).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useDaemon } from '../../helpers/session.ts';
import { waitFor } from '../../../harness/wait.ts';

describe('agent.read with a region', () => {
  const session = useDaemon();

  it('reads above the composer box: the working line and what came before, never the box or its footer', async () => {
    const agent = await session.fakeAgent(60_000, { name: 'region' });
    const idle = await session.call('agent.read', { target: agent, region: 'above_prompt_box' });
    assert.equal(idle.text.trimEnd(), 'Welcome to the fake agent.');
    await session.call('pane.send', { target: agent, text: 'a long task', keys: ['Enter'] });
    let working = '';
    await waitFor(async () => (working = (await session.call('agent.read', { target: agent, region: 'above_prompt_box', lines: 2 })).text).includes('esc to interrupt'), { what: 'the working line', timeoutMs: 15_000 });
    assert.doesNotMatch(working, /❯|for shortcuts|──/);
    const box = await session.call('agent.read', { target: agent, source: 'detection', region: 'prompt_box_body' });
    assert.equal(box.text.trim(), '❯');
  });

  it('refuses a region that is not rows of the screen, a misspelt one, and one with ansi or scrollback', async () => {
    const agent = await session.fakeAgent(60_000, { name: 'regionless' });
    for (const params of [{ region: 'osc_title' }, { region: 'below_match' }, { region: 'above_the_box' }, { region: 'above_prompt_box', ansi: true }, { region: 'above_prompt_box', source: 'scrollback' }]) {
      const error = await session.callError('agent.read', { target: agent, ...params });
      assert.equal(error.data.code, 'invalid_params', JSON.stringify(params));
      assert.equal(error.data.field, 'region', JSON.stringify(params));
    }
  });
});
