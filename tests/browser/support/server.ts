// Starts the server under test on a free loopback port with its own database.
import { spawn, ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface RunningServer {
  url: string;
  database: string;
  child: ChildProcess;
  output: string[];
  /** Graceful stop (SIGTERM), waits for exit. */
  stop(): Promise<void>;
  /** Hard kill (SIGKILL), waits for exit. */
  kill(): Promise<void>;
}

export interface ServerOptions {
  database?: string;
  listen?: string;
  args?: string[];
  env?: Record<string, string>;
}

export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const database = options.database ?? join(mkdtempSync(join(tmpdir(), 'othello-test-')), 'othello.db');
  const binary = process.env.OTHELLO_SERVER_BIN ?? 'target/debug/othello-server';
  const args = ['--listen', options.listen ?? '127.0.0.1:0', '--database', database, ...(options.args ?? [])];
  const child = spawn(binary, args, {
    // The lab explains offline unless a test asks otherwise (`auto` would pick up a real login or key).
    env: { ...process.env, OTHELLO_LOG: 'warn', OTHELLO_SITE_ROOT: process.env.OTHELLO_SITE_ROOT ?? 'site', NO_COLOR: '1', OTHELLO_EXPLAINER: 'offline', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output.join('')}`)), 30_000);
    const onData = (chunk: Buffer) => {
      const text = chunk.toString();
      output.push(text);
      const match = /listening on (http:\/\/[^\s]+)/.exec(output.join(''));
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output.join('')}`));
    });
  });
  const waitExit = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
    });
  return {
    url,
    database,
    child,
    output,
    async stop() {
      child.kill('SIGTERM');
      await waitExit();
    },
    async kill() {
      child.kill('SIGKILL');
      await waitExit();
    },
  };
}
