// Builds elements from data. Text always goes in as text, never as markup, so that a
// payload, an id or an error message cannot inject anything into the page.

/**
 * Creates an element: el('td', { class: 'count' }, '12'). Attributes whose value is null,
 * undefined or false are left out; 'on<event>' attributes become listeners.
 */
export function el(tag, attributes, ...children) {
	const element = document.createElement(tag);
	for (const [name, value] of Object.entries(attributes || {})) {
		if (value === null || value === undefined || value === false) {
			continue;
		}
		if (name.startsWith('on') && typeof value === 'function') {
			element.addEventListener(name.substring(2), value);
		}
		else {
			element.setAttribute(name, value === true ? '' : String(value));
		}
	}
	append(element, children);
	return element;
}

function append(element, children) {
	for (const child of children) {
		if (child === null || child === undefined || child === false) {
			continue;
		}
		if (Array.isArray(child)) {
			append(element, child);
		}
		else {
			element.append(child instanceof Node ? child : document.createTextNode(String(child)));
		}
	}
}

/** Replaces every child of an element. */
export function replace(element, ...children) {
	element.replaceChildren();
	append(element, children);
}

const counts = new Intl.NumberFormat();

/** 1234567 as "1,234,567" in the reader's locale. */
export function count(value) {
	return counts.format(value);
}

/** A length of time in milliseconds as "850 ms", "4.2 s", "12 min", "3 h" or "2 d". */
export function duration(millis) {
	const abs = Math.abs(millis);
	if (abs < 1000) {
		return `${Math.round(millis)} ms`;
	}
	if (abs < 60_000) {
		return `${(millis / 1000).toFixed(1)} s`;
	}
	if (abs < 3_600_000) {
		return `${Math.round(millis / 60_000)} min`;
	}
	if (abs < 172_800_000) {
		return `${(millis / 3_600_000).toFixed(1)} h`;
	}
	return `${Math.round(millis / 86_400_000)} d`;
}

const times = new Intl.DateTimeFormat(undefined, {
	year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit',
});

/** An instant (ISO-8601 text) in the reader's time zone. */
export function time(iso) {
	return times.format(new Date(iso));
}

/** An instant relative to now: "in 5 min" or "12 s ago". */
export function relative(iso, now) {
	const delta = new Date(iso).getTime() - now;
	return delta >= 0 ? `in ${duration(delta)}` : `${duration(-delta)} ago`;
}

/** The first line of a text, for a table cell; the whole text stays in the tooltip. */
export function firstLine(text) {
	if (!text) {
		return '';
	}
	const line = text.split('\n', 1)[0];
	return line.length > 140 ? `${line.substring(0, 140)}…` : line;
}
