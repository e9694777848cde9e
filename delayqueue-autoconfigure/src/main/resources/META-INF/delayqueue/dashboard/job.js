// One job: state, times (for a kept finished job also when and by which instance it
// finished), attempts, last error, its timeline, headers and the payload as formatted
// JSON, with the actions its state allows. Found in its topic, or in any topic by id alone.
import { api, segment, ApiError } from './api.js';
import { el, replace, count, time, relative } from './dom.js';
import { jobActions } from './actions.js';
import { timelineSections } from './timeline.js';

function formatted(payloadJson) {
	try {
		return JSON.stringify(JSON.parse(payloadJson), null, 2);
	}
	catch (e) {
		return payloadJson;
	}
}

function fact(name, ...value) {
	return [el('dt', {}, name), el('dd', {}, ...value)];
}

/** Creates the view of one job; topic is null for a lookup by id in every topic. */
export function jobView(topic, id, settings) {
	const title = el('h1', {});
	const body = el('div', { id: 'job' });
	const element = el('div', { class: 'job' }, title, body);
	let gone = false;

	function render(job, timeline) {
		const now = Date.now();
		const topicLink = `#/topics/${segment(job.topic)}`;
		replace(title, el('a', { href: '#/' }, 'Topics'), ' / ',
			el('a', { href: topicLink }, job.topic), ' / ', el('span', { id: 'job-id' }, job.id));
		const state = job.state.toLowerCase();
		replace(body,
			el('dl', { class: 'facts-list' },
				fact('State', el('a', { href: `${topicLink}?state=${state}`, class: `badge state ${state}`, id: 'job-state' }, state)),
				job.diedAt ? fact('Died', time(job.diedAt), el('span', { class: 'muted' }, ` (${relative(job.diedAt, now)})`)) : null,
				job.finishedAt ? fact(state === 'cancelled' ? 'Cancelled' : 'Completed', el('span', { id: 'job-finished' }, time(job.finishedAt)),
					el('span', { class: 'muted' }, ` (${relative(job.finishedAt, now)})`)) : null,
				job.finishedBy ? fact('By', el('span', { id: 'job-finished-by' }, job.finishedBy)) : null,
				fact('Due', time(job.dueAt), el('span', { class: 'muted' }, ` (${relative(job.dueAt, now)})`)),
				fact('Sent', time(job.createdAt), el('span', { class: 'muted' }, ` (${relative(job.createdAt, now)})`)),
				fact('Attempts', count(job.attempts))),
			el('div', { class: 'toolbar', id: 'job-actions' }, jobActions(job, settings, () => {})),
			job.lastError ? [el('h2', {}, 'Last error'), el('pre', { class: 'error', id: 'job-error' }, job.lastError)] : null,
			timelineSections(timeline),
			el('h2', {}, 'Headers'),
			Object.keys(job.headers).length === 0 ? el('p', { class: 'empty' }, 'No headers.')
				: el('table', { id: 'job-headers' }, el('tbody', {}, Object.entries(job.headers).sort()
					.map(([name, value]) => el('tr', {}, el('th', { scope: 'row' }, name), el('td', {}, value))))),
			el('h2', {}, 'Payload'),
			settings.showPayloads ? el('pre', { class: 'payload', id: 'job-payload' }, formatted(job.payloadJson))
				: el('p', { class: 'empty', id: 'job-payload' }, 'Hidden: delayqueue.dashboard.show-payloads does not show it to you.'));
	}

	function renderGone(message, timeline) {
		replace(title, el('a', { href: '#/' }, 'Topics'), ' / ',
			topic ? [el('a', { href: `#/topics/${segment(topic)}` }, topic), ' / '] : null, id);
		replace(body, el('p', { class: 'notice failure', id: 'job-missing' }, message),
			timeline && timeline.events.length > 0 ? timelineSections(timeline) : null);
	}

	// A job that completed or was cancelled and is not kept leaves its timeline for a
	// while: it tells what became of the job.
	async function timelineOfGone() {
		return topic ? api.timeline(topic, id) : null;
	}

	async function refresh() {
		if (gone) {
			return;
		}
		try {
			const job = await (topic ? api.job(topic, id) : api.lookup(id));
			render(job, await api.timeline(job.topic, job.id));
		}
		catch (e) {
			if (e instanceof ApiError && (e.status === 404 || e.status === 400)) {
				gone = e.status === 400;
				renderGone(e.message, gone ? null : await timelineOfGone());
				return;
			}
			throw e;
		}
	}

	return { element, refresh };
}
