import { type Socket, createSocket } from 'node:dgram';

/** What the server does with a name: answer these IPv4 addresses, or stay silent (a resolver that times out). */
export type DnsAnswer = string[] | 'silent';

export interface LoopbackDnsServer {
  /** `127.0.0.1:<port>`, for a resolver's servers. */
  address: string;
  /** The names asked for, in order. */
  asked: string[];
  close(): Promise<void>;
}

/**
 * A DNS server on a loopback UDP port, enough for c-ares: A queries for a
 * listed name are answered with its addresses, any other type of query for
 * it with no records, and an unlisted name with NXDOMAIN.
 */
export async function startLoopbackDnsServer(names: Record<string, DnsAnswer>): Promise<LoopbackDnsServer> {
  const socket = createSocket('udp4');
  const asked: string[] = [];
  socket.on('message', (query, peer) => {
    const question = readQuestion(query);
    if (question === null) return;
    asked.push(question.name);
    const answer = names[question.name];
    if (answer === 'silent') return;
    socket.send(reply(query, question, answer), peer.port, peer.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return {
    address: `127.0.0.1:${socket.address().port}`,
    asked,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}

/** A loopback UDP port nothing listens on, so a query there is refused at once. */
export async function closedUdpPort(): Promise<string> {
  const socket: Socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address();
  await new Promise<void>((resolve) => socket.close(() => resolve()));
  return `127.0.0.1:${port}`;
}

interface Question {
  name: string;
  type: number;
  /** Where the question (name, type and class) ends in the query. */
  end: number;
}

function readQuestion(query: Buffer): Question | null {
  const labels: string[] = [];
  let offset = 12;
  while (offset < query.length && query[offset] !== 0) {
    const length = query[offset];
    labels.push(query.subarray(offset + 1, offset + 1 + length).toString('ascii'));
    offset += 1 + length;
  }
  if (offset + 5 > query.length) return null;
  return { name: labels.join('.').toLowerCase(), type: query.readUInt16BE(offset + 1), end: offset + 5 };
}

function reply(query: Buffer, question: Question, answer: string[] | undefined): Buffer {
  const records = answer === undefined || question.type !== 1 ? [] : answer;
  const header = Buffer.alloc(12);
  query.copy(header, 0, 0, 2);
  // A response, recursion desired and available; NXDOMAIN (3) for a name it does not know.
  header.writeUInt16BE(0x8180 | (answer === undefined ? 3 : 0), 2);
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(records.length, 6);
  const answers = records.map((address) => {
    const record = Buffer.alloc(16);
    record.writeUInt16BE(0xc00c, 0);
    record.writeUInt16BE(1, 2);
    record.writeUInt16BE(1, 4);
    record.writeUInt32BE(60, 6);
    record.writeUInt16BE(4, 10);
    for (const [index, octet] of address.split('.').entries()) record.writeUInt8(Number(octet), 12 + index);
    return record;
  });
  return Buffer.concat([header, query.subarray(12, question.end), ...answers]);
}
