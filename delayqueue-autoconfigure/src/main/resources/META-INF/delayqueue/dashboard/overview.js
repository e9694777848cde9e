// The overview: every topic with its counts, due-lag, pause and listeners, and the
// throughput of all instances over the last hour or 30 days.
import { api, segment } from './api.js';
import { el, replace, count, duration } from './dom.js';
import { throughputChart } from './throughput.js';

const STATES = ['delayed', 'ready', 'running', 'dead'];

function listenersCell(row) {
	const running = row.listeners.filter((listener) => listener.running);
	const instances = new Set(running.map((listener) => listener.instance)).size;
	const threads = running.reduce((sum, listener) => sum + listener.concurrency, 0);
	const detail = row.listeners
		.map((listener) => `${listener.id} on ${listener.host} (${listener.instance}): ${listener.concurrency} at once${listener.running ? '' : ', stopped'}`)
		.join('\n');
	if (row.noConsumer) {
		return el('td', { class: 'listeners' },
			el('span', { class: 'badge warning', title: detail || 'No instance runs a listener for this topic' }, 'no consumer'));
	}
	return el('td', { class: 'listeners', title: detail },
		`${instances} ${instances === 1 ? 'instance' : 'instances'} · ${threads} ${threads === 1 ? 'thread' : 'threads'}`);
}

function topicRow(row) {
	const link = `#/topics/${segment(row.topic)}`;
	return el('tr', { 'data-topic': row.topic },
		el('th', { scope: 'row' }, el('a', { href: link }, row.topic),
			row.paused ? el('span', { class: 'badge paused' }, 'paused') : null),
		STATES.map((state) => el('td', { class: `count ${state}`, 'data-state': state },
			row[state] > 0 ? el('a', { href: `${link}?state=${state}` }, count(row[state])) : '0')),
		el('td', { class: 'count lag' }, row.dueLagMillis === null ? '–' : duration(row.dueLagMillis)),
		listenersCell(row));
}

function totalsRow(rows) {
	return el('tr', { class: 'totals' },
		el('th', { scope: 'row' }, `${rows.length} ${rows.length === 1 ? 'topic' : 'topics'}`),
		STATES.map((state) => el('td', { class: 'count' }, count(rows.reduce((sum, row) => sum + row[state], 0)))),
		el('td', {}), el('td', {}));
}

/** Creates the overview. */
export function overview(settings) {
	const body = el('tbody', {});
	const foot = el('tfoot', {});
	const table = el('table', { id: 'topics' },
		el('thead', {}, el('tr', {},
			el('th', { scope: 'col' }, 'Topic'),
			STATES.map((state) => el('th', { scope: 'col', class: 'count' }, state)),
			el('th', { scope: 'col', class: 'count', title: 'How late the oldest ready job is' }, 'due-lag'),
			el('th', { scope: 'col' }, 'Listeners'))),
		body, foot);
	const empty = el('p', { class: 'empty', hidden: true }, 'No topic has jobs yet.');
	const chart = settings.history ? throughputChart(null) : null;
	const element = el('div', { class: 'overview' },
		el('h1', {}, 'Topics'), table, empty,
		chart ? chart.element : el('p', { class: 'empty' }, 'The throughput history is off (delayqueue.history.enabled=false).'));

	async function refresh() {
		const [topics] = await Promise.all([api.topics(), chart ? chart.refresh() : null]);
		replace(body, topics.topics.map(topicRow));
		replace(foot, topics.topics.length > 1 ? totalsRow(topics.topics) : null);
		empty.hidden = topics.topics.length > 0;
	}

	return { element, refresh, close: () => chart && chart.close() };
}
