/** What an event shows of a callback the journal kept (see callbacks/callback-desk.ts). */
export interface MadeCallback {
  request: { method: string; url: string; body: string } | null;
  response: { status: number; headers: Record<string, string>; body: string } | null;
  elapsed_ms: number | null;
}

/**
 * A callback made for a call, as Twilio's `Events.json` shows it (`api.v2010.account.call.call_event`):
 * the request (method, URL, the parameters sent) and the answer (its status, body and type, and
 * how long it took: the one member two runs do not share). A callback that got no answer has a
 * null response.
 * @example twilioEventJson(entry) // '{"request":{"method":"POST","url":"http://127.0.0.1:9000/status","parameters":{"CallSid":"CA…",…}},"response":{…}}'
 */
export function twilioEventJson(e: MadeCallback): string {
  const request =
    e.request === null
      ? null
      : {
          method: e.request.method,
          url: e.request.url,
          parameters: Object.fromEntries(
            new URLSearchParams(e.request.method === 'POST' ? e.request.body : (e.request.url.split('?')[1] ?? '')),
          ),
        };
  const response =
    e.response === null
      ? null
      : {
          request_duration: e.elapsed_ms,
          response_code: e.response.status,
          response_body: e.response.body,
          content_type: e.response.headers['content-type'] ?? null,
        };
  return JSON.stringify({ request, response });
}
