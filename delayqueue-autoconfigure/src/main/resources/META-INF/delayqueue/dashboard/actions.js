// The buttons that change jobs and topics. They exist only when the dashboard is not
// read-only; the server refuses the same requests anyway when it is.
import { api } from './api.js';
import { el, count } from './dom.js';
import { act } from './app.js';

/** The buttons for one job, by its state; none for a running job or a read-only page. */
export function jobActions(job, settings, after) {
	if (settings.readOnly) {
		return [];
	}
	const done = async (action, message) => {
		await act(action, message);
		if (after) {
			after();
		}
	};
	const button = (name, label, action, message) => el('button', {
		type: 'button', class: `action ${name}`, 'data-action': name,
		onclick: () => done(action, message),
	}, label);
	const { topic, id } = job;
	// Cancelling or deleting a job cannot be undone, so it asks once more.
	const cancel = confirmedAction('cancel', 'Cancel', `Cancel job ${id}?`,
		() => done(() => api.remove(topic, id), `Job ${id} was cancelled`));
	switch (job.state.toLowerCase()) {
	case 'delayed':
		return [button('run-now', 'Run now', () => api.runNow(topic, id), `Job ${id} is ready to run now`), cancel];
	case 'ready':
		return [cancel];
	case 'dead':
		return [
			button('requeue', 'Requeue', () => api.requeue(topic, id), `Job ${id} was requeued`),
			confirmedAction('delete', 'Delete', `Delete dead job ${id} for good?`,
				() => done(() => api.remove(topic, id), `Job ${id} was deleted`)),
		];
	default:
		return [];
	}
}

/**
 * A button for an action that cannot be undone, which asks once more (naming what it
 * touches) before it acts.
 */
export function confirmedAction(name, label, question, confirmed) {
	const holder = el('span', { class: 'confirmed-action' });
	const ask = () => holder.replaceChildren(
		el('span', { class: 'question' }, question),
		el('button', { type: 'button', class: 'action danger', 'data-action': `${name}-confirm`, onclick: confirmed }, 'Yes'),
		el('button', { type: 'button', class: 'action', 'data-action': `${name}-keep`, onclick: reset }, 'No'));
	const reset = () => holder.replaceChildren(
		el('button', { type: 'button', class: 'action', 'data-action': name, onclick: ask }, label));
	reset();
	return holder;
}

/** The topic's bulk actions on dead jobs, each naming how many jobs it touches. */
export function deadActions(topic, dead, settings) {
	if (settings.readOnly || dead === 0) {
		return [];
	}
	const jobs = `${count(dead)} dead ${dead === 1 ? 'job' : 'jobs'}`;
	return [
		confirmedAction('requeue-dead', `Requeue ${jobs}`, `Requeue ${jobs} of ${topic}?`,
			() => act(() => api.requeueDead(topic), (answer) => `${count(answer.requeued)} dead jobs of ${topic} were requeued`)),
		confirmedAction('purge-dead', `Purge ${jobs}`, `Delete ${jobs} of ${topic} for good?`,
			() => act(() => api.purgeDead(topic), (answer) => `${count(answer.purged)} dead jobs of ${topic} were deleted`)),
	];
}

/** Pause or resume, by whether the topic is paused. */
export function pauseAction(topic, paused, settings) {
	if (settings.readOnly) {
		return null;
	}
	return paused
		? el('button', { type: 'button', class: 'action', 'data-action': 'resume', onclick: () => act(() => api.resume(topic), `${topic} resumed`) }, 'Resume')
		: el('button', { type: 'button', class: 'action', 'data-action': 'pause', onclick: () => act(() => api.pause(topic), `${topic} paused: running jobs finish, no new one starts`) }, 'Pause');
}
