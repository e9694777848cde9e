// Several jobs of a topic's page chosen at once, and the actions on all of them: requeue
// and delete for dead jobs, run now and cancel for pending ones, each one request to the
// API, which answers per job.
import { api } from './api.js';
import { el, replace, count } from './dom.js';
import { act } from './app.js';
import { confirmedAction } from './actions.js';

// The actions per state; those that cannot be undone ask once more.
const ACTIONS = {
	delayed: [['run-now', 'Run now', false, 'ready to run now'], ['delete', 'Cancel', true, 'cancelled']],
	ready: [['delete', 'Cancel', true, 'cancelled']],
	dead: [['requeue', 'Requeue', false, 'requeued'], ['delete', 'Delete', true, 'deleted']],
};

/** Whether jobs of a state can be selected: only where an action applies, and not read-only. */
export function selectable(state, settings) {
	return !settings.readOnly && Object.hasOwn(ACTIONS, state);
}

function plural(number, one) {
	return `${count(number)} ${number === 1 ? one : `${one}s`}`;
}

// "2 jobs requeued; 1 not found; 1 not dead (delayed)".
function outcome(answer, done) {
	const parts = [`${plural(answer.done, 'job')} ${done}`];
	const missing = answer.results.filter((result) => result.result === 'not-found').length;
	if (missing) {
		parts.push(`${count(missing)} not found`);
	}
	const others = answer.results.filter((result) => result.result === 'wrong-state');
	if (others.length) {
		const states = [...new Set(others.map((result) => result.state))].join(', ');
		parts.push(`${count(others.length)} skipped, being ${states}`);
	}
	return parts.join('; ');
}

/**
 * The selection of one page: the box per row, the box for the whole page, and the bar of
 * actions on what is selected.
 */
export function selection(topic, state) {
	const selected = new Set();
	let shown = [];
	let barKey = null;
	const bar = el('div', { class: 'bulk-bar', id: 'bulk-actions', hidden: true });
	const all = el('input', {
		type: 'checkbox', id: 'select-page', 'aria-label': 'Select every job on this page',
		onchange: () => {
			shown.forEach((id) => (all.checked ? selected.add(id) : selected.delete(id)));
			changed();
		},
	});

	function changed() {
		document.querySelectorAll('#jobs input.select').forEach((box) => { box.checked = selected.has(box.value); });
		all.checked = shown.length > 0 && shown.every((id) => selected.has(id));
		all.indeterminate = !all.checked && shown.some((id) => selected.has(id));
		renderBar();
	}

	// Rebuilt only when the selection changes, so a question being asked survives a refresh.
	function renderBar() {
		const ids = [...selected];
		const key = ids.join('\n');
		if (key === barKey) {
			return;
		}
		barKey = key;
		bar.hidden = ids.length === 0;
		const chosen = plural(ids.length, 'job');
		const run = (action, done) => act(() => api.bulk(topic, action, ids), (answer) => {
			selected.clear();
			return outcome(answer, done);
		});
		replace(bar, el('span', { class: 'selected-count' }, `${chosen} selected`),
			ACTIONS[state].map(([action, label, confirm, done]) => (confirm
				? confirmedAction(`bulk-${action}`, label, `${label} ${chosen} of ${topic}?`, () => run(action, done))
				: el('button', { type: 'button', class: 'action', 'data-action': `bulk-${action}`, onclick: () => run(action, done) }, label))),
			el('button', { type: 'button', class: 'action', 'data-action': 'bulk-clear', onclick: () => { selected.clear(); changed(); } }, 'Clear'));
	}

	return {
		bar,
		all,
		/** The box of one row. */
		box(id) {
			return el('input', {
				type: 'checkbox', class: 'select', value: id, 'aria-label': `Select job ${id}`, checked: selected.has(id),
				onchange: (event) => {
					if (event.target.checked) {
						selected.add(id);
					}
					else {
						selected.delete(id);
					}
					changed();
				},
			});
		},
		/** Keeps only what the page still shows. */
		shown(ids) {
			shown = ids;
			[...selected].filter((id) => !ids.includes(id)).forEach((id) => selected.delete(id));
			changed();
		},
	};
}
