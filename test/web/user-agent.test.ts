// A session's label comes from a header whoever signs in chooses (src/web/user-agent.ts): kept short,
// printable, and read for a name a person knows.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_USER_AGENT_CHARS, browserName, cleanUserAgent } from '../../src/web/user-agent.ts';

describe('a session user agent', () => {
  it('keeps printable ASCII only, at most 200 characters', () => {
    assert.equal(cleanUserAgent('evil\r\n\u001b[31mred\u202e<b>'), 'evil???[31mred?<b>');
    assert.equal(cleanUserAgent('x'.repeat(10_000)).length, MAX_USER_AGENT_CHARS);
    assert.equal(cleanUserAgent(undefined), 'no user agent');
    assert.equal(cleanUserAgent('   '), 'no user agent');
  });

  it('names the browser and system of the common ones, and cuts any other to 40 characters', () => {
    const cases: [string, string][] = [
      ['Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36', 'Chrome 131 on Android'],
      ['Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1', 'Safari 18 on iPhone'],
      ['Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0', 'Edge 131 on macOS'],
      ['Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0', 'Firefox 133 on Windows'],
      ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36', 'Headless Chrome 131 on Linux'],
      ['curl/8.5.0', 'curl/8.5.0'],
      [`agent-${'y'.repeat(60)}`, `agent-${'y'.repeat(31)}...`],
    ];
    for (const [header, name] of cases) assert.equal(browserName(cleanUserAgent(header)), name, header);
  });
});
