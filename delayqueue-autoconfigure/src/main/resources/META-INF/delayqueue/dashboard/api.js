// Calls the dashboard's JSON API. Its address is found from this module's own URL
// (<path>/assets/api.js), so the page works under any context path or proxy prefix.
const base = new URL('../api/', import.meta.url);

/** An answer of the API other than 2xx, with the server's explanation. */
export class ApiError extends Error {
	constructor(status, message) {
		super(message || `The server answered ${status}`);
		this.status = status;
	}
}

// Spring Security's cookie-based CSRF protection (CookieCsrfTokenRepository) hands the
// token to scripts in this cookie and expects it back in a header on every change.
function csrfHeaders(method) {
	if (method === 'GET') {
		return {};
	}
	const cookie = document.cookie.split('; ').find((entry) => entry.startsWith('XSRF-TOKEN='));
	return cookie ? { 'X-XSRF-TOKEN': decodeURIComponent(cookie.substring('XSRF-TOKEN='.length)) } : {};
}

async function call(method, path, params, json) {
	const url = new URL(path, base);
	for (const [name, value] of Object.entries(params || {})) {
		if (value !== null && value !== undefined && value !== '') {
			url.searchParams.set(name, value);
		}
	}
	const sent = json === undefined ? {} : { body: JSON.stringify(json) };
	const type = json === undefined ? {} : { 'Content-Type': 'application/json' };
	const response = await fetch(url, {
		method,
		headers: { Accept: 'application/json', ...type, ...csrfHeaders(method) },
		credentials: 'same-origin',
		...sent,
	});
	const text = await response.text();
	let body = null;
	try {
		body = text ? JSON.parse(text) : null;
	}
	catch (e) {
		body = null;
	}
	if (!response.ok) {
		throw new ApiError(response.status, body && body.message);
	}
	return body;
}

/** Encodes one path segment: topic names and ids may hold characters with a meaning in URLs. */
export function segment(value) {
	return encodeURIComponent(value);
}

export const api = {
	settings: () => call('GET', 'settings'),
	topics: () => call('GET', 'topics'),
	topic: (topic) => call('GET', `topics/${segment(topic)}`),
	history: (range, topic) => call('GET', 'history', topic ? { range, topic } : { range }),
	// With an id prefix or error text, a search of the state's newest jobs instead of a page.
	jobs: (topic, state, offset, count, filters) =>
		call('GET', `topics/${segment(topic)}/jobs`, { state, offset, count, ...(filters || {}) }),
	// One action on several jobs: a result per id.
	bulk: (topic, action, ids) => call('POST', `topics/${segment(topic)}/jobs/actions`, null, { action, ids }),
	job: (topic, id) => call('GET', `topics/${segment(topic)}/jobs/${segment(id)}`),
	timeline: (topic, id) => call('GET', `topics/${segment(topic)}/jobs/${segment(id)}/timeline`),
	lookup: (id) => call('GET', `jobs/${segment(id)}`),
	runNow: (topic, id) => call('POST', `topics/${segment(topic)}/jobs/${segment(id)}/run-now`),
	requeue: (topic, id) => call('POST', `topics/${segment(topic)}/jobs/${segment(id)}/requeue`),
	remove: (topic, id) => call('DELETE', `topics/${segment(topic)}/jobs/${segment(id)}`),
	requeueDead: (topic) => call('POST', `topics/${segment(topic)}/requeue-dead`),
	purgeDead: (topic) => call('POST', `topics/${segment(topic)}/purge-dead`),
	pause: (topic) => call('POST', `topics/${segment(topic)}/pause`),
	resume: (topic) => call('POST', `topics/${segment(topic)}/resume`),
	schedules: () => call('GET', 'schedules'),
	pauseSchedule: (id) => call('POST', `schedules/${segment(id)}/pause`),
	resumeSchedule: (id) => call('POST', `schedules/${segment(id)}/resume`),
	triggerSchedule: (id) => call('POST', `schedules/${segment(id)}/trigger`),
};
