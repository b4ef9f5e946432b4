// What of a spawn's environment the state file keeps: a key named as a secret is dropped whatever
// its value, and a value shaped as one is dropped whatever its key. src/daemon/panes/secrets.ts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isSecretKey, secretValueShape, withoutSecrets } from '../../../src/daemon/panes/secrets.ts';

describe('secrets in a spawn environment', () => {
  it('drops keys by the word parts of their names, in any case', () => {
    const secret = ['PGPASS', 'OPENAI_KEY', 'OPENAI_API_KEY', 'openaiApiKey', 'GH_TOKEN', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN', 'DB_PASSWORD', 'MYSQL_PWD_PASS', 'SSH_PASSPHRASE', 'GOOGLE_APPLICATION_CREDENTIALS', 'NPM_AUTH', 'HTTP_AUTHORIZATION', 'SENTRY_DSN', 'session.cookie', 'deploy-key', 'GPG_PRIVATE', 'X_AUTHTOKEN', 'client_secret'];
    const plain = ['PATH', 'HOME', 'PWD', 'OLDPWD', 'GIT_AUTHOR_NAME', 'GIT_AUTHOR_EMAIL', 'KEYBOARD_LAYOUT', 'CORRAL_AGENT', 'FAKE_SESSION', 'PASSENGER', 'TERM'];
    assert.deepEqual(secret.filter((key) => !isSecretKey(key)), [], 'every secret name is dropped');
    assert.deepEqual(plain.filter((key) => isSecretKey(key)), [], 'no plain name is dropped');
  });

  it('drops values that hold credentials in a URL or a known token shape, under any key', () => {
    const secret: Record<string, string> = {
      DATABASE_URL: 'postgres://app:hunter2@db.internal:5432/app',
      REDIS: 'redis://:onlypass@cache:6379/0',
      REMOTE: 'https://someone:ghx@github.com/org/repo.git',
      OPENAI: 'sk-proj-4f9Q2aXbYcZd8e7F6g5H',
      ANTHROPIC: 'sk-ant-api03-abcdefghijklmnopqrstuvwx',
      GH: 'ghp_0123456789abcdefghijABCDEFGHIJklmn',
      GH_FINE: 'github_pat_11ABCDEFG0123456789_abcdefghijklmnop',
      GL: 'glpat-abcdefghij0123456789',
      SLACK_BOT: 'xoxb-123456789012-abcdefghijkl',
      SLACK_USER: 'xoxp-123456789012-abcdefghijkl',
      AWS_ID: 'AKIAIOSFODNN7EXAMPLE',
      GOOGLE: 'AIzaSyA-1234567890abcdefghijklmnopqrstu',
      STRIPE: 'sk_live_4eC39HqLyjWDarjtT1zdp7dc',
      NPM: 'npm_abcdefghijklmnopqrstuvwxyz0123456789',
      HF: 'hf_abcdefghijklmnopqrstuvwxyzABCDEFGH',
      JWT: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c',
      PEM: '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEA\n-----END OPENSSH PRIVATE KEY-----',
      RANDOM_B64: 'Zk9x2LqP7vR4tW1yB8nM3cD6hJ0sG5aE',
      RANDOM_B36: 'k3j9x0q2m7z4w8p1v6r5t0y3u9i2o7e4a1s6d8f5',
      IN_ARGS: '--header=X-Api: Zk9x2LqP7vR4tW1yB8nM3cD6hJ0sG5aE --verbose',
    };
    const plain: Record<string, string> = {
      PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
      JAVA_HOME: '/usr/lib/jvm/java-17-openjdk-amd64',
      NODE_DIR: '/home/someone/.nvm/versions/node/v20.11.1/bin',
      REPO: 'ssh://git@github.com/org/repo.git',
      SITE: 'https://user@example.com/path?q=1',
      COMMIT: '6fe8334b2c1ecfa75fca30c299cb5510694990a5',
      DIGEST: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
      RUN_ID: '87b0f096-f18c-4040-a295-1ac0bab59c3c',
      TARGET: 'x86_64-pc-linux-gnu-gcc-12.2.0-release',
      LONG_NAME: 'MyVeryLongComponentNameForTesting2024Edition',
      CLASS: 'ThisIsAVeryLongVariableNameWithNumbers123',
      VERSION: '1.2.3-beta.4+build.567890123456789',
      FAKE_SESSION: 'sess-1234',
      LS_COLORS: 'rs=0:di=01;34:ln=01;36:mh=00:pi=40;33:so=01;35:do=01;35:bd=40;33;01',
      TASK: 'sk-8 is a task name, not a key',
    };
    assert.deepEqual(Object.entries(secret).filter(([, value]) => secretValueShape(value) === null).map(([key]) => key), [], 'every secret value is dropped');
    assert.deepEqual(Object.entries(plain).filter(([, value]) => secretValueShape(value) !== null).map(([key, value]) => `${key}: ${secretValueShape(value)}`), [], 'no plain value is dropped');
    assert.equal(secretValueShape(secret.DATABASE_URL!), 'a URL with a password');
  });

  it('judges values crafted against its patterns in linear time (the daemon spends it on every spawn)', () => {
    // pane.spawn takes 1024 entries of 64 KiB within its 1 MiB line: sixteen such values per shape.
    const crafted = ['a', 'sk-', 'eyJa.', 'eyJaaaaaaaaa-', 'a://b:', 'Ab1', 'ghp_', 'xoxb-', '-----BEGIN A', 'a.', 'AKIA', 'github_pat_', 'sk_live_'];
    const started = performance.now();
    for (const unit of crafted) {
      const value = unit.repeat(Math.floor(65_536 / unit.length));
      withoutSecrets(Object.fromEntries(Array.from({ length: 16 }, (_, i) => [`K${i}`, value])));
    }
    // About 0.5 s on a loaded machine; the unbounded URL scheme took 3.4 s per value of `sk-sk-...`.
    // The bound is only far enough above linear time that no load reaches it.
    assert.ok(performance.now() - started < 20_000, `took ${Math.round(performance.now() - started)} ms`);
  });

  it('keeps the rest, and names the dropped keys without their values', () => {
    const { env, dropped } = withoutSecrets({ PLAIN: 'yes', DATABASE_URL: 'postgres://app:hunter2@db/app', PGPASS: 'x', OPENAI_KEY: 'y', GIT_AUTHOR_NAME: 'A Person' });
    assert.deepEqual(env, { PLAIN: 'yes', GIT_AUTHOR_NAME: 'A Person' });
    assert.deepEqual(dropped, ['DATABASE_URL', 'PGPASS', 'OPENAI_KEY']);
  });
});
