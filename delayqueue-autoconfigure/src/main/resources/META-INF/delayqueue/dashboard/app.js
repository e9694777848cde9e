// The dashboard's entry point: the frame (title, sections, job lookup, status line), the
// router over the URL's fragment, and the poller that refreshes the view every 5 seconds while
// the tab is visible.
import { api } from './api.js';
import { el, replace } from './dom.js';
import { overview } from './overview.js';
import { topicView } from './topic.js';
import { jobView } from './job.js';
import { schedulesView } from './schedules.js';

const REFRESH_MILLIS = 5000;

const main = el('main', { id: 'view' });
const status = el('span', { id: 'status', class: 'status' });
const notice = el('div', { id: 'notice', class: 'notice', role: 'status', hidden: true });
const sections = el('nav', { class: 'sections', 'aria-label': 'Sections' },
	el('a', { href: '#/', 'data-section': 'topics' }, 'Topics'),
	el('a', { href: '#/schedules', 'data-section': 'schedules' }, 'Schedules'));
let current = null;
let settings = null;
let noticeTimer = null;

/** Shows a short message above the view: the outcome of an action or a failed call. */
export function tell(message, failure) {
	notice.textContent = message;
	notice.className = failure ? 'notice failure' : 'notice';
	notice.hidden = false;
	clearTimeout(noticeTimer);
	noticeTimer = setTimeout(() => { notice.hidden = true; }, failure ? 10000 : 4000);
}

/** Runs an action, tells its outcome, then refreshes the view. */
export async function act(action, success) {
	try {
		const answer = await action();
		tell(typeof success === 'function' ? success(answer) : success, false);
	}
	catch (e) {
		tell(e.message, true);
	}
	await refresh();
}

function header() {
	const input = el('input', {
		id: 'lookup', type: 'search', name: 'id', placeholder: 'Find a job by id', 'aria-label': 'Job id',
		autocomplete: 'off', required: true, maxlength: 500,
	});
	const form = el('form', {
		class: 'lookup',
		onsubmit: (event) => {
			event.preventDefault();
			const id = input.value.trim();
			if (id) {
				location.hash = `#/jobs/${encodeURIComponent(id)}`;
			}
		},
	}, input, el('button', { type: 'submit' }, 'Find'));
	return el('header', {},
		el('a', { href: '#/', class: 'brand' }, 'delayqueue'),
		sections,
		settings.readOnly ? el('span', { class: 'badge', id: 'read-only', title: 'delayqueue.dashboard.read-only is true' }, 'read-only') : null,
		form,
		status);
}

function route() {
	const hash = location.hash.replace(/^#/, '') || '/';
	const [path, query] = hash.split('?');
	const parts = path.split('/').filter((part) => part).map(decodeURIComponent);
	const params = new URLSearchParams(query || '');
	if (parts[0] === 'topics' && parts.length === 2) {
		return topicView(parts[1], params, settings);
	}
	if (parts[0] === 'topics' && parts[2] === 'jobs' && parts.length === 4) {
		return jobView(parts[1], parts[3], settings);
	}
	if (parts[0] === 'jobs' && parts.length === 2) {
		return jobView(null, parts[1], settings);
	}
	if (parts[0] === 'schedules' && parts.length === 1) {
		return schedulesView(settings);
	}
	return overview(settings);
}

let refreshing = null;

// One refresh at a time: a slow answer must not pile up calls behind it.
async function refresh() {
	if (!current) {
		return;
	}
	if (refreshing) {
		return refreshing;
	}
	refreshing = refreshOnce().finally(() => { refreshing = null; });
	return refreshing;
}

async function refreshOnce() {
	const view = current;
	try {
		await view.refresh();
		status.textContent = `Updated ${new Date().toLocaleTimeString()}`;
		status.classList.remove('failure');
	}
	catch (e) {
		status.textContent = `Update failed: ${e.message}`;
		status.classList.add('failure');
	}
}

async function show() {
	if (current && current.close) {
		current.close();
	}
	current = route();
	const section = location.hash.startsWith('#/schedules') ? 'schedules' : 'topics';
	for (const link of sections.children) {
		if (link.dataset.section === section) {
			link.setAttribute('aria-current', 'page');
		}
		else {
			link.removeAttribute('aria-current');
		}
	}
	replace(main, current.element);
	await refresh();
}

async function start() {
	try {
		settings = await api.settings();
	}
	catch (e) {
		replace(document.body, el('p', { class: 'notice failure' }, `The dashboard's API did not answer: ${e.message}`));
		return;
	}
	replace(document.body, header(), notice, main);
	window.addEventListener('hashchange', show);
	// Polls only while someone can see the page; a hidden tab costs Redis nothing.
	setInterval(() => {
		if (!document.hidden) {
			refresh();
		}
	}, REFRESH_MILLIS);
	document.addEventListener('visibilitychange', () => {
		if (!document.hidden) {
			refresh();
		}
	});
	await show();
}

start();
