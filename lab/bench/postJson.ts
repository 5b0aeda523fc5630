/** POSTs a JSON body to a loopback URL and returns the status and parsed body. */
export async function postJson(url: string, body: unknown): Promise<{ status: number; body: unknown }> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Keep the raw text: a non-JSON answer is itself a finding worth reporting.
  }
  return { status: response.status, body: parsed };
}
