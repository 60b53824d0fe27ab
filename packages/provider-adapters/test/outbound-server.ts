import { type Server, type Socket, createServer } from "node:net";
import type { AddressInfo } from "node:net";
import type { LookupFunction } from "node:net";

/** A loopback TCP listener that counts connections and answers every request with `200 {}`. */
export interface CountingServer {
  port: number;
  connections(): number;
  close(): Promise<void>;
}

/** Starts a {@link CountingServer} on a loopback address (127.0.0.1 or an alias such as 127.0.0.2). */
export async function startCountingServer(host = "127.0.0.1"): Promise<CountingServer> {
  let connections = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("data", () => socket.write("HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}"));
    socket.on("error", () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return {
    port: (server.address() as AddressInfo).port,
    connections: () => connections,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A resolver mapping test host names to loopback addresses only (no DNS; nothing else is reachable). */
export function loopbackLookup(names: Record<string, string>): LookupFunction & { calls: string[] } {
  const calls: string[] = [];
  const lookup = ((hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    calls.push(hostname);
    const address = names[hostname];
    if (address === undefined || !address.startsWith("127.")) {
      callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" }));
      return;
    }
    if (options.all) callback(null, [{ address, family: 4 }]);
    else callback(null, address, 4);
  }) as unknown as LookupFunction & { calls: string[] };
  lookup.calls = calls;
  return lookup;
}
