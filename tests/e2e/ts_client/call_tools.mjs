// Calls Brain tools with the official TypeScript MCP SDK client and prints what the SDK
// hands its caller: per call {isError, structuredContent} or {thrown} if callTool threw.
// Usage: node call_tools.mjs <mcp-url> <token> '<json list of {name, arguments}>'
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [url, token, callsJson] = process.argv.slice(2);
const transport = new StreamableHTTPClientTransport(new URL(url), {
  requestInit: { headers: { Authorization: `Bearer ${token}` } },
});
const client = new Client({ name: "brain-ts-check", version: "1.0.0" });
await client.connect(transport);
const results = [];
for (const call of JSON.parse(callsJson)) {
  try {
    const result = await client.callTool({ name: call.name, arguments: call.arguments });
    results.push({ isError: result.isError ?? false, structuredContent: result.structuredContent });
  } catch (error) {
    results.push({ thrown: String(error) });
  }
}
await client.close();
process.stdout.write(JSON.stringify(results));
