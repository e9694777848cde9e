// The schedules: every recurring schedule with its ticks in words, its zone, its next fire
// times, its latest runs with their outcome, its missed ticks, and the buttons that
// pause, resume and trigger it (none on a read-only page).
import { api } from './api.js';
import { el, replace, count, time, relative } from './dom.js';
import { act } from './app.js';

// What became of a run, from the tick's outcome and the state of its job now.
function runLabel(run) {
	switch (run.outcome) {
	case 'SKIPPED':
		return { text: 'skipped', tone: 'muted', title: 'The last tick\'s job was still pending' };
	case 'MISSED':
		return { text: run.missed > 1 ? `missed ×${count(run.missed)}` : 'missed', tone: 'warning', title: 'No instance ran while it fell due' };
	default: {
		const byHand = run.outcome === 'TRIGGERED' ? 'by hand, ' : '';
		const states = {
			READY: ['waiting', 'muted'], RUNNING: ['running', 'ok'], DELAYED: ['retrying', 'warning'], DEAD: ['dead', 'dead'],
		};
		const [state, tone] = run.jobState ? states[run.jobState] : ['done', 'done'];
		return { text: `${byHand}${state}`, tone, title: run.jobId };
	}
	}
}

function whenCell(schedule) {
	const expression = schedule.cron ? `${schedule.cron} · ${schedule.zone}` : 'fixed rate, aligned to the epoch';
	return el('td', { class: 'when' },
		el('div', { class: 'description' }, schedule.description || schedule.cron),
		el('div', { class: 'muted expression' }, expression));
}

function nextCell(schedule, now) {
	if (schedule.paused || !schedule.enabled) {
		return el('td', { class: 'next muted' }, '–');
	}
	return el('td', { class: 'next' }, el('ol', { class: 'fire-times' },
		schedule.nextFireTimes.map((tick) => el('li', { title: time(tick) }, relative(tick, now)))));
}

function runsCell(schedule, now) {
	if (schedule.recentRuns.length === 0) {
		return el('td', { class: 'runs muted' }, 'No tick yet');
	}
	return el('td', { class: 'runs' }, el('ul', { class: 'run-list' },
		schedule.recentRuns.slice(0, 5).map((run) => {
			const label = runLabel(run);
			return el('li', { 'data-outcome': run.outcome.toLowerCase() },
				el('span', { class: 'tick', title: time(run.tick) }, relative(run.tick, now)),
				el('span', { class: `badge run ${label.tone}`, title: label.title }, label.text));
		})));
}

function statusBadges(schedule) {
	return [
		schedule.paused ? el('span', { class: 'badge paused' }, 'paused') : null,
		schedule.enabled ? null : el('span', { class: 'badge' }, 'disabled'),
		el('span', { class: 'badge origin', title: schedule.declared ? 'delayqueue.schedules or @Recurring' : 'DelayQueueSchedules.save' },
			schedule.declared ? 'configured' : 'saved at run time'),
	];
}

function actions(schedule, settings) {
	if (settings.readOnly) {
		return null;
	}
	const { id } = schedule;
	return el('td', { class: 'row-actions' },
		schedule.paused
			? el('button', { type: 'button', class: 'action', 'data-action': 'resume', onclick: () => act(() => api.resumeSchedule(id), `${id} resumed from its next tick`) }, 'Resume')
			: el('button', { type: 'button', class: 'action', 'data-action': 'pause', onclick: () => act(() => api.pauseSchedule(id), `${id} paused: no tick runs until it is resumed`) }, 'Pause'),
		el('button', { type: 'button', class: 'action', 'data-action': 'trigger', onclick: () => act(() => api.triggerSchedule(id), (answer) => `${id} triggered: job ${answer.jobId} is ready`) }, 'Trigger now'));
}

function scheduleRow(schedule, settings, now) {
	return el('tr', { 'data-schedule': schedule.id },
		el('th', { scope: 'row' },
			el('div', { class: 'schedule-id' }, schedule.id),
			el('div', { class: 'muted' }, 'to ', el('a', { href: `#/topics/${encodeURIComponent(schedule.topic)}` }, schedule.topic)),
			statusBadges(schedule)),
		whenCell(schedule),
		nextCell(schedule, now),
		runsCell(schedule, now),
		el('td', { class: 'count missed', title: 'Ticks missed while no instance ran, in all' }, count(schedule.missedTicks)),
		actions(schedule, settings));
}

/** Creates the view of every schedule. */
export function schedulesView(settings) {
	const body = el('tbody', {});
	const table = el('table', { id: 'schedules' },
		el('thead', {}, el('tr', {},
			el('th', { scope: 'col' }, 'Schedule'),
			el('th', { scope: 'col' }, 'When'),
			el('th', { scope: 'col' }, 'Next'),
			el('th', { scope: 'col' }, 'Latest runs'),
			el('th', { scope: 'col', class: 'count' }, 'Missed'),
			settings.readOnly ? null : el('th', { scope: 'col' }, ''))),
		body);
	const empty = el('p', { class: 'empty', hidden: true },
		'No recurring schedule yet: declare one under delayqueue.schedules, with @Recurring, or save one with DelayQueueSchedules.');
	const element = el('div', { class: 'schedules' }, el('h1', {}, 'Schedules'), table, empty);

	async function refresh() {
		const answer = await api.schedules();
		const now = Date.now();
		replace(body, answer.schedules.map((schedule) => scheduleRow(schedule, settings, now)));
		empty.hidden = answer.schedules.length > 0;
		table.hidden = answer.schedules.length === 0;
	}

	return { element, refresh };
}
