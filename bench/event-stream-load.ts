import http from 'node:http';

/**
 * The event-stream bench's load, run as its own process:
 * `node event-stream-load.js <api> <apiKey> <streams per job> <jobId>...`.
 * Opens that many streams per job and prints `open <streams>` once every
 * stream has its first event, then `event <jobId> <status> <epoch ms>` for
 * each later event as it arrives (so one status change prints once per
 * stream), and `done <streams ended> <refused>` when every stream has ended.
 */
function main(): void {
  const [api, apiKey, perJobText, ...jobIds] = process.argv.slice(2);
  const perJob = Number(perJobText);
  const total = perJob * jobIds.length;
  const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
  let opened = 0;
  let ended = 0;
  let refused = 0;
  const finishOne = () => {
    ended += 1;
    if (ended === total) {
      process.stdout.write(`done ${ended - refused} ${refused}\n`);
      process.exit(0);
    }
  };
  const openStream = (jobId: string) => {
    const request = http.get(
      `${api}/download/${jobId}/events`,
      { agent, headers: { Authorization: `Bearer ${apiKey}`, Accept: 'text/event-stream' } },
      (response) => {
        if (response.statusCode !== 200) {
          refused += 1;
          process.stderr.write(`stream of ${jobId} refused with ${response.statusCode}\n`);
          response.resume();
          finishOne();
          return;
        }
        let buffer = '';
        let events = 0;
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          buffer += chunk;
          for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const data = block.split('\n').find((line) => line.startsWith('data: '));
            if (data === undefined) continue;
            events += 1;
            if (events === 1) {
              opened += 1;
              if (opened === total) process.stdout.write(`open ${opened}\n`);
              continue;
            }
            const arrived = performance.timeOrigin + performance.now();
            const { status } = JSON.parse(data.slice(6)) as { status: string };
            process.stdout.write(`event ${jobId} ${status} ${arrived.toFixed(3)}\n`);
          }
        });
        response.on('end', finishOne);
        response.on('error', finishOne);
      },
    );
    request.on('error', (error) => {
      process.stderr.write(`stream of ${jobId} failed: ${error.message}\n`);
      refused += 1;
      finishOne();
    });
  };
  for (const jobId of jobIds) for (let i = 0; i < perJob; i += 1) openStream(jobId);
}

main();
