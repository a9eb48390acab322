// @ts-check
// The JSON API.  Every error is a one-line `detail`; a busy server (503) says when to try again.
// A server that cannot be reached is said once, in the page's banner (connection.js), never as a
// browser's raw "Failed to fetch" in every panel: such an error is an ApiError of status 0.
import { serverAway, serverBack } from "./connection.js";

export const AWAY = "can't reach the gamelearn server; retrying";

export class ApiError extends Error {
  constructor(message, status, retryAfter, data) {
    super(message);
    this.status = status;
    this.retryAfter = retryAfter;
    this.data = data;  // the answer's JSON (a stale move's 409 carries the game under `game`)
  }

  get away() { return this.status === 0; }
}

// What a panel shows for an error: nothing for a server away (the banner says it).
export function problem(error) {
  return error instanceof ApiError && error.away ? "" : error.message;
}

export async function api(method, path, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    const text = typeof body === "string";  // a game record's text goes as it is
    options.headers["Content-Type"] = text ? "text/plain; charset=utf-8" : "application/json";
    options.body = text ? body : JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch (error) {
    serverAway();
    throw new ApiError(AWAY, 0, 0, null);
  }
  serverBack();
  const text = await response.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch (e) { data = null; }
  if (!response.ok) {
    const detail = data && data.detail ? data.detail : `${response.status} ${response.statusText}`;
    const retry = Number(response.headers.get("Retry-After") || 0);
    throw new ApiError(detail, response.status, retry, data);
  }
  return data;
}

// A request that waits and tries again while the server's move pool is full (503), telling the
// person each time through `onWait(seconds)`.
export async function patiently(method, path, body, onWait, tries = 4) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await api(method, path, body);
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 503 || attempt >= tries) throw error;
      const seconds = Math.max(1, error.retryAfter || 1);
      onWait(seconds, error.message);
      await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    }
  }
}
