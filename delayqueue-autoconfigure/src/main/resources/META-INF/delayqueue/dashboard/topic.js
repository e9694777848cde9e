// A topic: its counts, pause, listeners, groups waiting for their turn and dead-job
// actions; tabs of its delayed, ready, running and dead jobs, and of the completed and
// cancelled ones its completed-retention keeps, a page at a time (state, page and page
// size live in the URL), filtered by id prefix and error text, with several jobs selected
// for one action; and its own throughput chart.
import { api, segment } from './api.js';
import { el, replace, count, duration, time, relative, firstLine } from './dom.js';
import { jobActions, deadActions, pauseAction } from './actions.js';
import { throughputChart } from './throughput.js';
import { selection, selectable } from './selection.js';

const STATES = ['delayed', 'ready', 'running', 'dead', 'completed', 'cancelled'];
// Kept finished jobs: counted by their page, not by the topic's counts.
const KEPT = ['completed', 'cancelled'];
const PAGE_SIZES = [20, 50, 100, 500];
const DEFAULT_SIZE = 50;
// Typing waits this long for a pause before the server searches.
const DEBOUNCE_MILLIS = 400;

function wholeNumber(value, otherwise, min, max) {
	const number = Number.parseInt(value, 10);
	return Number.isInteger(number) && number >= min && number <= max ? number : otherwise;
}

function link(topic, state, page, size, filters) {
	const query = new URLSearchParams({ state, page, size });
	for (const [name, value] of Object.entries(filters || {})) {
		if (value) {
			query.set(name, value);
		}
	}
	return `#/topics/${segment(topic)}?${query}`;
}

/** Creates the view of one topic. */
export function topicView(topic, params, settings) {
	const state = STATES.includes(params.get('state')) ? params.get('state') : 'delayed';
	const size = wholeNumber(params.get('size'), DEFAULT_SIZE, 1, settings.maxPageSize);
	const page = wholeNumber(params.get('page'), 1, 1, Number.MAX_SAFE_INTEGER);
	const offset = (page - 1) * size;
	// Errors hidden from this user cannot be searched either: which jobs match would tell.
	const filters = { idPrefix: params.get('idPrefix') || '', error: settings.showPayloads ? params.get('error') || '' : '' };
	const filtered = () => Boolean(filters.idPrefix || filters.error);
	const chosen = selectable(state, settings) ? selection(topic, state) : null;

	const title = el('h1', {}, el('a', { href: '#/' }, 'Topics'), ' / ', el('span', { id: 'topic-name' }, topic));
	const facts = el('p', { class: 'facts', id: 'topic-facts' });
	const groups = el('p', { class: 'facts muted', id: 'topic-groups', hidden: true });
	const toolbar = el('div', { class: 'toolbar', id: 'topic-actions' });
	const tabs = el('nav', { class: 'tabs', 'aria-label': 'Job states' });
	const rows = el('tbody', {});
	const table = el('table', { id: 'jobs', 'data-state': state },
		el('thead', {}, el('tr', {},
			chosen ? el('th', { scope: 'col', class: 'select' }, chosen.all) : null,
			el('th', { scope: 'col' }, 'Id'),
			el('th', { scope: 'col' }, state === 'dead' ? 'Died' : KEPT.includes(state) ? 'Finished' : 'Due'),
			el('th', { scope: 'col' }, 'Sent'),
			el('th', { scope: 'col', class: 'count' }, 'Attempts'),
			el('th', { scope: 'col' }, 'Last error'),
			settings.readOnly ? null : el('th', { scope: 'col' }, ''))),
		rows);
	const empty = el('p', { class: 'empty', hidden: true });
	const pager = el('nav', { class: 'pager', 'aria-label': 'Pages' });
	const chart = settings.history ? throughputChart(topic) : null;
	const searched = el('p', { class: 'searched muted', id: 'searched', hidden: true });
	const element = el('div', { class: 'topic' }, title, facts, groups, toolbar, tabs, filterBar(), chosen ? chosen.bar : null,
		searched, table, empty, pager, chart ? chart.element : null);
	let toolbarKey = null;
	let typing = null;

	function filterBar() {
		const search = () => {
			clearTimeout(typing);
			typing = setTimeout(() => {
				// The URL keeps the filters for a reload or a link; the view stays, with its focus.
				history.replaceState(null, '', link(topic, state, 1, size, filters));
				refresh();
			}, DEBOUNCE_MILLIS);
		};
		const input = (name, label, attributes) => el('input', {
			type: 'search', id: `filter-${name}`, value: filters[name], placeholder: label, 'aria-label': label,
			autocomplete: 'off', ...attributes,
			oninput: (event) => { filters[name] = event.target.value.trim(); search(); },
		});
		return el('form', { class: 'filters', id: 'job-filters', role: 'search', onsubmit: (event) => event.preventDefault() },
			input('idPrefix', 'Id starts with', { maxlength: 256 }),
			settings.showPayloads ? input('error', 'Last error contains', { maxlength: 200 })
				: el('span', { class: 'muted', id: 'error-filter-hidden' }, 'Error messages are hidden from you, so they cannot be searched'));
	}

	function renderTabs(row, kept) {
		const tabCount = (candidate) => (KEPT.includes(candidate) ? (candidate === state ? kept : null) : row[candidate]);
		replace(tabs, STATES.map((candidate) => el('a', {
			href: link(topic, candidate, 1, size, filters), class: 'tab', 'data-tab': candidate,
			'aria-current': candidate === state ? 'page' : null,
		}, candidate, tabCount(candidate) === null ? null : el('span', { class: 'tab-count' }, count(tabCount(candidate))))));
	}

	// Rebuilt only when what it shows changes, so a question being asked survives a refresh.
	function renderToolbar(row) {
		const key = `${row.paused}/${row.dead}`;
		if (key === toolbarKey) {
			return;
		}
		toolbarKey = key;
		replace(toolbar, pauseAction(topic, row.paused, settings), deadActions(topic, row.dead, settings));
	}

	function renderFacts(row) {
		const running = row.listeners.filter((listener) => listener.running);
		const instances = new Set(running.map((listener) => listener.instance)).size;
		const threads = running.reduce((sum, listener) => sum + listener.concurrency, 0);
		replace(facts,
			row.paused ? el('span', { class: 'badge paused' }, 'paused') : null,
			row.noConsumer ? el('span', { class: 'badge warning' }, 'no consumer') : null,
			row.dueLagMillis === null ? 'No job is waiting for a listener' : `The oldest ready job waits for ${duration(row.dueLagMillis)}`,
			` · ${instances} ${instances === 1 ? 'instance' : 'instances'}, ${threads} ${threads === 1 ? 'thread' : 'threads'}`);
	}

	// Once a topic's jobs have groups, its ready jobs are taken from them in turns.
	function renderGroups(row) {
		const waiting = row.groups ? row.groups.waiting : 0;
		groups.hidden = waiting === 0;
		if (waiting === 0) {
			return;
		}
		// A group held back by its own bounds waits while the other groups take turns.
		const largest = row.groups.largest.slice(0, 5).map((group) => {
			const state = [group.running > 0 ? `${count(group.running)} running` : null,
				group.held ? 'held back by its limits' : null].filter(Boolean);
			return `${group.group === null ? '(no group)' : group.group} ${count(group.waiting)}`
				+ (state.length ? ` (${state.join(', ')})` : '');
		});
		replace(groups, `${count(waiting)} ${waiting === 1 ? 'group has' : 'groups have'} ready jobs waiting for their turn`,
			`: ${largest.join(', ')}${waiting > largest.length ? ', …' : ''}`);
	}

	function jobRow(job, now) {
		const detail = `#/topics/${segment(topic)}/jobs/${segment(job.id)}`;
		const when = job.finishedAt || job.diedAt || job.dueAt;
		return el('tr', { 'data-job': job.id },
			chosen ? el('td', { class: 'select' }, chosen.box(job.id)) : null,
			el('td', { class: 'id' }, el('a', { href: detail }, job.id)),
			el('td', { title: time(when) }, relative(when, now)),
			el('td', { title: time(job.createdAt) }, relative(job.createdAt, now)),
			el('td', { class: 'count' }, count(job.attempts)),
			el('td', { class: 'error', title: job.lastError || '' }, firstLine(job.lastError)),
			settings.readOnly ? null : el('td', { class: 'row-actions' },
				jobActions({ topic, id: job.id, state }, settings)));
	}

	function renderPager(total, shown) {
		const pages = Math.max(1, Math.ceil(total / size));
		replace(pager,
			page > 1 ? el('a', { href: link(topic, state, page - 1, size), rel: 'prev' }, '← Previous') : null,
			el('span', {}, total === 0 ? 'No jobs' : `${count(offset + 1)}–${count(offset + shown)} of ${count(total)} · page ${count(page)} of ${count(pages)}`),
			page < pages ? el('a', { href: link(topic, state, page + 1, size), rel: 'next' }, 'Next →') : null,
			el('label', {}, 'Per page ', el('select', {
				id: 'page-size',
				onchange: (event) => { location.hash = link(topic, state, 1, event.target.value); },
			}, PAGE_SIZES.concat(PAGE_SIZES.includes(size) ? [] : [size]).sort((a, b) => a - b)
				.map((option) => el('option', { value: option, selected: option === size }, option)))));
	}

	// A search shows the newest matches among the newest jobs it looked at, without pages.
	function renderSearch(jobs) {
		searched.hidden = false;
		searched.textContent = `${count(jobs.matched)} ${jobs.matched === 1 ? 'job matches' : 'jobs match'}`
			+ ` among the newest ${count(jobs.searched)} ${state} jobs searched (a search looks at the newest ${count(jobs.limit)} at most)`
			+ (jobs.matched > jobs.jobs.length ? `; the newest ${count(jobs.jobs.length)} are shown` : '');
		replace(pager);
	}

	async function refresh() {
		const search = filtered();
		const [row, jobs] = await Promise.all([
			api.topic(topic),
			search ? api.jobs(topic, state, 0, size, filters) : api.jobs(topic, state, offset, size),
			chart ? chart.refresh() : null,
		]);
		const now = Date.now();
		renderFacts(row);
		renderGroups(row);
		renderToolbar(row);
		const kept = KEPT.includes(state) ? jobs.kept : null;
		renderTabs(row, kept);
		replace(rows, jobs.jobs.map((job) => jobRow(job, now)));
		if (chosen) {
			chosen.shown(jobs.jobs.map((job) => job.id));
		}
		empty.hidden = jobs.jobs.length > 0;
		empty.textContent = search ? `No ${state} job matches.` : offset > 0 ? 'No jobs on this page.'
			: KEPT.includes(state) ? `No ${state} jobs kept: delayqueue.topics.<topic>.completed-retention keeps them for a while.`
				: `No ${state} jobs.`;
		if (search) {
			renderSearch(jobs);
		}
		else {
			searched.hidden = true;
			renderPager(kept === null ? row[state] : kept, jobs.jobs.length);
		}
	}

	return {
		element,
		refresh,
		close: () => {
			clearTimeout(typing);
			if (chart) {
				chart.close();
			}
		},
	};
}
