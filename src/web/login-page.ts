import { createHash } from 'node:crypto';

/**
 * What a browser without a session gets at `/` (every other path is a 401): a page whose one inline script trades the
 * token in the URL's fragment for a session cookie and key (POST /session; the key kept in this
 * origin's localStorage as src/web/page/sign-in.ts keeps it), takes the token out of the address bar
 * and history, and loads the board. The policy allows exactly that script, by its hash.
 */
const SCRIPT = `
const token = new URLSearchParams(location.hash.slice(1)).get('token');
history.replaceState(null, '', '/');
const say = (text) => { document.getElementById('why').textContent = text; };
addEventListener('hashchange', () => location.reload());
if (!token) say('Open the URL that corral web printed: it carries the sign-in token.');
else fetch('/session', { method: 'POST', body: token, credentials: 'same-origin' }).then(async (reply) => {
  if (!reply.ok) return say('That token is not right (corral web prints a new one each time it starts).');
  localStorage.setItem('corral.key', (await reply.json()).key);
  location.reload();
}, () => say('corral web does not answer.'));
`;

const hash = createHash('sha256').update(SCRIPT).digest('base64');

export const LOGIN_PAGE = {
  html: `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Corral</title></head>
<body><h1>Corral</h1><p id="why">Signing in…</p><script>${SCRIPT}</script></body></html>`,
  policy: `default-src 'none'; script-src 'sha256-${hash}'; connect-src 'self'; frame-ancestors 'none'`,
};
