// Loaded into the conformance suite's Node process (`node --import`): every request the suite
// sends to the server under test carries `Authorization: Bearer $BRAIN_CONFORMANCE_TOKEN`, as a
// client holding a token would. Covers both HTTP stacks the suite uses: undici (global fetch, the
// MCP SDK client, undici.request) through the global dispatcher, and node:http (raw header probes).
import http from 'node:http';
import { createRequire } from 'node:module';

// The suite's own undici (resolved from the suite's entry point, BRAIN_CONFORMANCE_SUITE).
const { Agent, setGlobalDispatcher } = createRequire(process.env.BRAIN_CONFORMANCE_SUITE)('undici');

const token = process.env.BRAIN_CONFORMANCE_TOKEN;
const target = new URL(process.env.BRAIN_CONFORMANCE_URL);
if (!token) throw new Error('BRAIN_CONFORMANCE_TOKEN is not set');
const bearer = `Bearer ${token}`;

function hasAuthorization(headers) {
  if (headers == null) return false;
  const names = Array.isArray(headers)
    ? headers.filter((_, index) => index % 2 === 0)
    : typeof headers[Symbol.iterator] === 'function'
      ? [...headers].map(([name]) => name)
      : Object.keys(headers);
  return names.some((name) => String(name).toLowerCase() === 'authorization');
}

function withBearer(headers) {
  if (hasAuthorization(headers)) return headers;
  if (headers == null) return { authorization: bearer };
  if (Array.isArray(headers)) return [...headers, 'authorization', bearer];
  if (typeof headers[Symbol.iterator] === 'function') {
    return [...[...headers].flat(), 'authorization', bearer];
  }
  return { ...headers, authorization: bearer };
}

setGlobalDispatcher(
  new Agent().compose((dispatch) => (options, handler) => {
    const origin = new URL(String(options.origin)).origin;
    const headers = origin === target.origin ? withBearer(options.headers) : options.headers;
    return dispatch({ ...options, headers }, handler);
  })
);

const request = http.request;
http.request = function requestWithBearer(options, ...rest) {
  const isTarget =
    options != null &&
    typeof options === 'object' &&
    !(options instanceof URL) &&
    String(options.port) === target.port &&
    (options.hostname ?? options.host) === target.hostname;
  return request.call(this, isTarget ? { ...options, headers: withBearer(options.headers) } : options, ...rest);
};
