// A throwaway PostgreSQL cluster for the browser suite (the same recipe as the
// server's tests, server/tests/support/pg.rs): initdb on a temp folder,
// pg_ctl start on 127.0.0.1 and a free port, trust authentication, fsync off;
// stopped with `stop()`. As root, both run as `postgres` through runuser
// (initdb refuses root). Without PostgreSQL installed the test fails saying so.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, chmodSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface PgCluster {
  url: string;
  dir: string;
  stop(): void;
}

function findBin(): string {
  for (const dir of (process.env.PATH ?? '').split(':')) {
    if (dir && existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl'))) return dir;
  }
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).sort() : [];
  for (const version of versions.reverse()) {
    const bin = join(root, version, 'bin');
    if (existsSync(join(bin, 'initdb')) && existsSync(join(bin, 'pg_ctl'))) return bin;
  }
  throw new Error(
    'PostgreSQL is not installed: initdb and pg_ctl were found neither on PATH nor in ' +
      '/usr/lib/postgresql/*/bin (Debian: apt-get install postgresql; .ci/run does this).',
  );
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

export async function startPg(): Promise<PgCluster> {
  const bin = findBin();
  const dir = mkdtempSync(join(tmpdir(), 'othello-pg-'));
  const asPostgres = process.getuid?.() === 0;
  if (asPostgres) {
    execFileSync('chown', ['-R', 'postgres:', dir]);
    chmodSync(dir, 0o755);
  }
  const run = (program: string, args: string[]) => {
    const path = join(bin, program);
    const [cmd, full] = asPostgres ? ['runuser', ['-u', 'postgres', '--', path, ...args]] : [path, args];
    return execFileSync(cmd, full as string[], { cwd: dir, stdio: 'pipe' });
  };
  const data = join(dir, 'data');
  run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-locale', '-E', 'UTF8', '--no-sync']);
  const log = join(dir, 'server.log');
  let lastError: unknown = null;
  for (let attempt = 0; attempt < 5; attempt++) {
    const port = await freePort();
    const options = `-h 127.0.0.1 -p ${port} -k ${dir} -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`;
    try {
      run('pg_ctl', ['-D', data, '-l', log, '-o', options, '-w', '-t', '60', 'start']);
      return {
        url: `postgres://postgres@127.0.0.1:${port}/postgres`,
        dir,
        stop() {
          try {
            run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
          } catch {
            // Already stopped.
          }
        },
      };
    } catch (error) {
      lastError = error;
    }
  }
  const text = existsSync(log) ? readFileSync(log, 'utf8') : '';
  throw new Error(`PostgreSQL did not start: ${lastError}\n${text}`);
}
