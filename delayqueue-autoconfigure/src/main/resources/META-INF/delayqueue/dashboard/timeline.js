// A job's timeline as the job view shows it: each recorded step on a vertical line, and
// the attempts gathered from those steps with the error of each failed one. The server
// has already hidden host names and error messages the reader may not see.
import { el, time, duration, relative } from './dom.js';

// The steps that end a delivery, and what the attempts table calls them.
const OUTCOMES = {
	FAILED: 'failed', COMPLETED: 'completed', EXPIRED: 'expired', RELEASED: 'released', DEAD: 'dead',
};

function step(event, previous, now) {
	const type = event.type.toLowerCase();
	const facts = [
		event.attempt > 0 ? `attempt ${event.attempt}` : null,
		event.instance ? `on ${event.instance}` : null,
		event.dueAt ? `due ${time(event.dueAt)} (${relative(event.dueAt, now)})` : null,
	].filter((fact) => fact !== null);
	const since = previous ? new Date(event.at).getTime() - new Date(previous.at).getTime() : null;
	return el('li', { class: `step ${type}`, 'data-step': type },
		el('span', { class: 'marker', 'aria-hidden': 'true' }),
		el('div', { class: 'step-head' },
			el('span', { class: `badge step ${type}` }, type),
			el('time', { datetime: event.at }, time(event.at)),
			since !== null ? el('span', { class: 'muted' }, ` +${duration(since)}`) : null),
		facts.length > 0 ? el('div', { class: 'step-facts muted' }, facts.join(' · ')) : null,
		event.detail && event.type === 'FAILED' ? el('pre', { class: 'error step-error' }, event.detail) : null,
		event.detail && event.type !== 'FAILED' ? el('div', { class: 'step-detail' }, `by ${event.detail}`) : null);
}

// The deliveries, in the order they started. A requeue from the dead jobs resets the
// attempts, so the deliveries after it count from 1 again in a new round.
function attempts(events) {
	const deliveries = new Map();
	let round = 0;
	for (const event of events) {
		if (event.type === 'REQUEUED') {
			round++;
		}
		if (event.attempt < 1) {
			continue;
		}
		const key = `${round}:${event.attempt}`;
		const attempt = deliveries.get(key) || { number: event.attempt, round };
		if (event.type === 'CLAIMED') {
			attempt.claimed = event;
		}
		// A delivery that failed or expired and then died keeps its own outcome: death
		// follows from it and shows on the timeline.
		if (OUTCOMES[event.type] && !(attempt.outcome && event.type === 'DEAD')) {
			attempt.outcome = event;
		}
		if (event.type === 'FAILED') {
			attempt.error = event.detail;
		}
		deliveries.set(key, attempt);
	}
	return [...deliveries.values()];
}

function attemptRow(attempt) {
	const outcome = attempt.outcome ? OUTCOMES[attempt.outcome.type] : 'running';
	const started = attempt.claimed || attempt.outcome;
	return el('tr', { 'data-attempt': attempt.number, 'data-round': attempt.round, class: outcome },
		el('td', { class: 'count' }, attempt.number,
			attempt.round > 0 ? el('span', { class: 'muted' }, ' after requeue') : null),
		el('td', {}, started ? time(started.at) : ''),
		el('td', {}, (started && started.instance) || ''),
		el('td', {}, el('span', { class: `badge step ${outcome}` }, outcome)),
		el('td', { class: 'error' }, attempt.error || ''));
}

/**
 * The job's timeline and attempts, from the API's answer; or why there is none when the
 * job's topic records no timeline.
 */
export function timelineSections(timeline) {
	if (!timeline.recorded) {
		return [el('h2', {}, 'Timeline'), el('p', { class: 'empty', id: 'job-timeline' },
			`This topic records no timeline: set delayqueue.topics.${timeline.topic}.timeline=true`)];
	}
	if (timeline.events.length === 0) {
		return [el('h2', {}, 'Timeline'), el('p', { class: 'empty', id: 'job-timeline' },
			'No step of this job is recorded: it was sent before its topic recorded a timeline, or its timeline has expired.')];
	}
	const now = Date.now();
	const tried = attempts(timeline.events);
	return [
		tried.length > 0 ? [el('h2', { id: 'job-attempts-title' }, 'Attempts'),
			el('table', { id: 'job-attempts' },
				el('thead', {}, el('tr', {}, el('th', { class: 'count' }, '#'), el('th', {}, 'Started'),
					el('th', {}, 'Instance'), el('th', {}, 'Outcome'), el('th', {}, 'Error'))),
				el('tbody', {}, tried.map(attemptRow)))] : null,
		el('h2', {}, 'Timeline'),
		el('ol', { class: 'timeline', id: 'job-timeline' },
			timeline.events.map((event, i) => step(event, i > 0 ? timeline.events[i - 1] : null, now))),
	];
}
