// A TCP proxy in front of the test server that can swallow WebSocket
// handshakes: it accepts the connection, reads the upgrade request and never
// answers (as a stalled proxy or a wedged server would), while every other
// connection is passed through byte for byte. Pages opened through its URL
// see the real site (the server allows any port on 127.0.0.1 in `Host`).
import * as net from 'node:net';

export interface StallProxy {
  url: string;
  /** Handshakes swallowed so far, by request path. */
  stalled: string[];
  /** Upgrade requests passed through, by request path. */
  passed: string[];
  close(): Promise<void>;
}

/**
 * `stall(path, count)` decides, for each WebSocket upgrade request, whether
 * to swallow it (`count` is how many for that path were swallowed already).
 */
export async function stallProxy(target: string, stall: (path: string, count: number) => boolean): Promise<StallProxy> {
  const { hostname, port } = new URL(target);
  const sockets = new Set<net.Socket>();
  const stalled: string[] = [];
  const passed: string[] = [];
  const server = net.createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => {});
    client.once('data', (first) => {
      const head = first.toString('latin1');
      const line = head.split('\r\n', 1)[0] ?? '';
      const path = line.split(' ')[1] ?? '';
      const upgrade = /\r\nupgrade:\s*websocket/i.test(head);
      if (upgrade && stall(path, stalled.filter((p) => p === path).length)) {
        // Read and drop whatever else comes; never answer.
        stalled.push(path);
        client.on('data', () => {});
        return;
      }
      if (upgrade) passed.push(path);
      const upstream = net.connect(Number(port), hostname, () => {
        upstream.write(first);
        client.pipe(upstream);
        upstream.pipe(client);
      });
      sockets.add(upstream);
      upstream.on('close', () => {
        sockets.delete(upstream);
        client.destroy();
      });
      upstream.on('error', () => client.destroy());
      client.on('close', () => upstream.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${address.port}`,
    stalled,
    passed,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
