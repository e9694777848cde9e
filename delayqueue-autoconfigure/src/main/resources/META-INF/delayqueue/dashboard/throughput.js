// The throughput chart: completed, failed, retried and dead jobs of all instances, per
// minute over the last 5 minutes, hour or 24 hours, or per day over the last 30 days, drawn
// by uPlot from where the data starts: an application up for 3 minutes draws 3 minutes.
import uPlot from './uplot/uPlot.esm.js';
import { api } from './api.js';
import { el, count } from './dom.js';

const SERIES = [
	{ key: 'completed', variable: '--completed' },
	{ key: 'failed', variable: '--failed' },
	{ key: 'retried', variable: '--retried' },
	{ key: 'dead', variable: '--dead' },
];

const RANGES = {
	'five-minutes': { button: '5 min', title: 'Last 5 minutes, per minute', width: 60 },
	hour: { button: '1 hour', title: 'Last hour, per minute', width: 60 },
	day: { button: '24 hours', title: 'Last 24 hours, per minute', width: 60 },
	month: { button: '30 days', title: 'Last 30 days, per day', width: 86400 },
};
// The shortest stretch drawn, in buckets, so that one minute of data is still a chart.
const MIN_BUCKETS = 5;
// 24 hours of minutes is a large read: asked again at most once a minute.
const DAY_REFRESH_MILLIS = 60_000;

const dark = window.matchMedia('(prefers-color-scheme: dark)');

function color(name) {
	return getComputedStyle(document.documentElement).getPropertyValue(name).trim();
}

function options(width, range) {
	const axis = { stroke: color('--muted'), grid: { stroke: color('--grid'), width: 1 }, ticks: { stroke: color('--grid') } };
	return {
		width,
		height: 220,
		cursor: { drag: { x: false, y: false } },
		legend: { live: false },
		scales: { y: { range: (self, min, max) => [0, Math.max(4, max)] } },
		axes: [
			{ ...axis, values: range === 'month' ? '{D} {MMM}' : undefined },
			{ ...axis, size: 56, values: (self, ticks) => ticks.map((tick) => count(tick)) },
		],
		series: [
			{ label: range === 'month' ? 'Day' : 'Minute', value: range === 'month' ? '{YYYY}-{MM}-{DD}' : '{HH}:{mm}' },
			...SERIES.map((series) => ({
				label: series.key,
				stroke: color(series.variable),
				fill: series.key === 'completed' ? color('--completed-fill') : undefined,
				width: 2,
				points: { show: false },
				paths: uPlot.paths.stepped({ align: 1 }),
			})),
		],
	};
}

// The index of the first bucket drawn: the first with a count, or fewer than MIN_BUCKETS
// before the end. Buckets before it are empty, most often because the application was not up.
function firstDrawn(buckets) {
	const first = buckets.findIndex((bucket) => SERIES.some((series) => bucket[series.key] > 0));
	const latest = Math.max(0, buckets.length - MIN_BUCKETS);
	return first < 0 ? latest : Math.min(first, latest);
}

// Each count holds from its bucket's start to the next one's; the last bucket gets an end
// point too, so that the current minute or day shows as a step, not as a line's edge.
function data(history, range) {
	const buckets = history.buckets.slice(firstDrawn(history.buckets));
	const { width } = RANGES[range];
	const starts = buckets.map((bucket) => new Date(bucket.start).getTime() / 1000);
	const last = buckets[buckets.length - 1];
	return [
		buckets.length ? starts.concat([starts[starts.length - 1] + width]) : starts,
		...SERIES.map((series) => {
			const values = buckets.map((bucket) => bucket[series.key]);
			return buckets.length ? values.concat([last[series.key]]) : values;
		}),
	];
}

/** Creates the chart of one topic, or of every topic when topic is null. */
export function throughputChart(topic) {
	let range = 'hour';
	let plot = null;
	let last = null;
	const holder = el('div', { class: 'plot', id: 'throughput-plot' });
	const totals = el('p', { class: 'totals-line', id: 'throughput-totals' });
	let fetched = 0;
	const buttons = Object.entries(RANGES).map(([key, { button: label }]) => el('button', {
		type: 'button', 'data-range': key, 'aria-pressed': String(key === range),
		onclick: () => {
			range = key;
			buttons.forEach((button) => button.setAttribute('aria-pressed', String(button.dataset.range === range)));
			rebuild(null);
			refresh();
		},
	}, label));
	const element = el('section', { class: 'throughput' },
		el('div', { class: 'section-head' }, el('h2', {}, 'Throughput'), el('div', { class: 'toggle' }, buttons)),
		holder, totals);

	function width() {
		return Math.max(320, holder.clientWidth || element.clientWidth || 800);
	}

	// Colours come from the stylesheet, so a change of the browser's theme redraws.
	function rebuild(history) {
		if (plot) {
			plot.destroy();
			plot = null;
		}
		if (history) {
			plot = new uPlot(options(width(), range), data(history, range), holder);
		}
	}

	async function refresh() {
		const asked = range;
		if (asked === 'day' && last && last.range === 'day' && Date.now() - fetched < DAY_REFRESH_MILLIS) {
			return;
		}
		const history = await api.history(asked, topic);
		fetched = Date.now();
		if (asked !== range) {
			return;
		}
		last = history;
		if (plot) {
			plot.setData(data(history, range));
		}
		else {
			rebuild(history);
		}
		const sums = SERIES.map((series) => `${count(history.buckets.reduce((sum, bucket) => sum + bucket[series.key], 0))} ${series.key}`);
		totals.textContent = `${RANGES[range].title}: ${sums.join(' · ')}${drawnFrom(history.buckets)}`;
		// How many buckets the chart draws, for a reader of the page's markup such as a test.
		holder.dataset.buckets = String(history.buckets.length - firstDrawn(history.buckets));
	}

	// Says why the chart is shorter than the range.
	function drawnFrom(buckets) {
		if (firstDrawn(buckets) === 0) {
			return '';
		}
		const first = buckets.find((bucket) => SERIES.some((series) => bucket[series.key] > 0));
		return first ? ` · nothing counted before ${new Date(first.start).toLocaleString()}` : ' · nothing counted yet';
	}

	const resize = () => plot && plot.setSize({ width: width(), height: 220 });
	const retheme = () => last && rebuild(last);
	window.addEventListener('resize', resize);
	dark.addEventListener('change', retheme);

	return {
		element,
		refresh,
		close: () => {
			window.removeEventListener('resize', resize);
			dark.removeEventListener('change', retheme);
			rebuild(null);
		},
	};
}
