/** Raw-socket clients that send a request's headers and one byte of its body, then stall. */
import { connect, type Socket } from "node:net";

/** Slow senders opened by {@link openSlowSenders}. */
export interface SlowSenders {
  sockets: Socket[];
  /** Per sender: what the server wrote before the connection closed (its status line first). */
  answers: Promise<string>[];
  /** Senders whose connection has closed so far. */
  closed(): number;
  /** Closes every sender's connection. */
  destroy(): void;
}

/**
 * Opens `count` connections to 127.0.0.1:`port`, one after another, each sending a POST of a
 * 1,000-byte JSON body to `path`: the headers and the first byte only; the rest never comes.
 */
export async function openSlowSenders(port: number, count: number, path: string): Promise<SlowSenders> {
  const sockets: Socket[] = [];
  const answers: Promise<string>[] = [];
  let closed = 0;
  for (let i = 0; i < count; i += 1) {
    const socket = connect(port, "127.0.0.1");
    sockets.push(socket);
    answers.push(
      new Promise((resolve) => {
        let text = "";
        socket.on("data", (chunk) => (text += chunk.toString()));
        socket.on("close", () => {
          closed += 1;
          resolve(text);
        });
        socket.on("error", () => resolve(text));
      }),
    );
    await new Promise<void>((resolve, reject) => {
      socket.once("connect", () => resolve());
      socket.once("error", reject);
    });
    socket.write(
      `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{`,
    );
  }
  return {
    sockets,
    answers,
    closed: () => closed,
    destroy: () => {
      for (const socket of sockets) socket.destroy();
    },
  };
}

/** The status line of a raw HTTP answer (`HTTP/1.1 408 Request Timeout`), or "" when none came. */
export function statusLine(answer: string): string {
  return answer.split("\r\n")[0] ?? "";
}
