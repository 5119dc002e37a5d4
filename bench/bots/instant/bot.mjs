// Answers every get_move at once with the first empty cell: measures the orchestrator, not a bot.
import http from 'node:http';

const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    let reply = { status: 'ok' };
    if (req.url === '/get_move') {
      const { board } = JSON.parse(Buffer.concat(chunks).toString());
      outer: for (let i = 0; i < board.length; i++) for (let j = 0; j < board.length; j++) if (board[i][j] === 0) { reply = { move: [i, j] }; break outer; }
    }
    const text = JSON.stringify(reply);
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    res.end(text);
  });
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.argv[2]), '0.0.0.0');
