import { once } from 'node:events';
import net from 'node:net';

/** A free TCP port on 127.0.0.1, for a server the test starts in another process. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
