import type { FastifyReply } from 'fastify';

/**
 * Sends a response at the end of the event loop's poll phase (`setImmediate`: the check phase
 * of the same turn) instead of at once, so that the responses to the requests that arrived
 * together leave together. For handlers that are not `async` and return nothing (Fastify then
 * leaves the reply to them).
 *
 * Why: a response to a client that is asleep waiting for it wakes that client up, and on a
 * virtual machine waking a process on another CPU is expensive (an inter-processor interrupt
 * goes through the hypervisor). Written one by one, between the parsing of one request and the
 * next, nearly every response is such a wake-up; written as a burst, the first wakes the client
 * and the others find it awake. On the GET hot path (docs/BENCHMARKS.md, issue 16) this took the
 * server's CPU per request down by about a fifth, and p50 latency with it. A lone request waits
 * for nothing: the check phase follows the poll phase at once.
 *
 * Not a global `onSend` hook: a deferred send leaves `reply.sent` false meanwhile, and an async
 * handler that calls `reply.send()` without returning the reply is then sent a second time.
 */
export function sendAtEndOfTurn(reply: FastifyReply, send: () => unknown): void {
  setImmediate(() => {
    try {
      send();
    } catch (error) {
      reply.send(error);
    }
  });
}
