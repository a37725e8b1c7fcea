/**
 * The docs page's description of the WebSocket streams (`/api/v1/stream/…`, workers/routes/stream/), which an
 * OpenAPI document cannot describe: the URLs, what each message is, how to resume, the acknowledgement and the close
 * codes. README.md, "WebSocket streams", says the same; docs/adr/0031-websocket-streams.md says why.
 */

/** Each stream: its URL, the REST list one of whose elements each message is, and how to resume after a message. */
export const STREAMS = [
  {
    name: "A topic's messages",
    url: '/api/v1/stream/topics/{topicId}/messages',
    query: '[?encoding=utf-8]',
    list: '<code>messages</code> of <code>/api/v1/topics/{topicId}/messages</code> (<code>encoding=utf-8</code>: the message as text)',
    resume: 'timestamp=gt:&lt;consensus_timestamp&gt;',
  },
  {
    name: 'Blocks',
    url: '/api/v1/stream/blocks',
    query: '',
    list: '<code>blocks</code> of <code>/api/v1/blocks</code>',
    resume: 'timestamp=gt:&lt;timestamp.to&gt;',
  },
  {
    name: "An account's transactions",
    url: '/api/v1/stream/transactions',
    query: '?account.id=&lt;id&gt;',
    list: '<code>transactions</code> of <code>/api/v1/transactions?account.id=&lt;id&gt;</code>',
    resume: 'timestamp=gt:&lt;consensus_timestamp&gt;',
  },
  {
    name: "A contract's logs",
    url: '/api/v1/stream/contracts/{contractId}/results/logs',
    query: '[?topic0=…&amp;topic1=…]',
    list: '<code>logs</code> of <code>/api/v1/contracts/{contractId}/results/logs</code>',
    resume: 'timestamp=gte:&lt;timestamp&gt;&amp;index=gt:&lt;index&gt;',
  },
] as const;

/** The close codes a server sends, with their reasons. */
export const CLOSE_CODES = [
  {
    code: '1008',
    reason: 'Subscriber too slow: more than N messages unacknowledged',
    when: 'the buffer stayed full, with no acknowledgement, for 10 s',
  },
  {
    code: '1008',
    reason: 'Expected the number of messages received',
    when: 'the client sent anything but a count of at most the messages sent',
  },
  {
    code: '1011',
    reason: 'Internal error',
    when: 'the server could not go on (the database failed): subscribe again, resuming after the last message',
  },
  {
    code: "the client's",
    reason: 'closed',
    when: 'the client closed: the server answers with the same code (1000 when it gave none)',
  },
] as const;

const row = (cells: readonly string[]) => `<tr>${cells.map((cell) => `<td>${cell}</td>`).join('')}</tr>`;

/** The section, in Swagger UI's own look, placed below the operations. */
export function streamsSection(): string {
  return `<section id="websocket-streams" class="swagger-ui"><div class="wrapper">
<h2>WebSocket streams</h2>
<p>A <code>GET</code> with a WebSocket upgrade pushes the rows of a REST list as they are ingested: each message is
one JSON text frame holding one element of that list, written exactly as the list writes it, oldest first, each row
once.</p>
<table>
<thead><tr><th>stream</th><th>URL</th><th>each message is one element of</th><th>resume after the last message with</th></tr></thead>
<tbody>
${STREAMS.map((s) => row([s.name, `<code>${s.url}${s.query}</code>`, s.list, `<code>${s.resume}</code>`])).join('\n')}
</tbody>
</table>
<p><b>Where a stream starts.</b> Without <code>timestamp</code>, with the first record file ingested after the
subscription; with <code>timestamp=gt:</code> (or <code>gte:</code>), right after (or at) that point: what was missed
is sent first, then the live rows, with no gap and no duplicate. A log stream may filter on <code>topic0</code> …
<code>topic3</code> as the REST list does (16 values in all); <code>contractId</code> is an id or an EVM address,
<code>account.id</code> one account id.</p>
<p><b>Before the upgrade</b> a subscription is a request like any other: bad parameters get a 400 with the REST
API's messages, a request without an upgrade 426 <code>Expected a WebSocket upgrade</code>, and each subscription
takes one token of the client's rate limit (429).</p>
<p><b>Acknowledgement.</b> The client sends nothing but acknowledgements: a text frame holding the number of messages
it has received on this socket so far (cumulative, decimal). The server never leaves more than N messages
unacknowledged (<code>maxBufferSize</code>, 16384 unless set otherwise); past that, the rest waits until an
acknowledgement makes room. A client that may receive more must
acknowledge as it goes; one that never gets that far need not acknowledge at all.</p>
<p><b>Close codes.</b></p>
<table>
<thead><tr><th>code</th><th>reason</th><th>when</th></tr></thead>
<tbody>
${CLOSE_CODES.map((c) => row([c.code, `<code>${c.reason}</code>`, c.when])).join('\n')}
</tbody>
</table>
</div></section>`;
}
