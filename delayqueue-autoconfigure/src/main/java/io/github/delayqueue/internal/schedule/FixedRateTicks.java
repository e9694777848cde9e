package io.github.delayqueue.internal.schedule;

/**
 * Ticks at whole multiples of a period since the epoch, whatever the time zone.
 *
 * @author delayqueue contributors
 */
final class FixedRateTicks implements TickSeries {

	private final long periodMillis;

	FixedRateTicks(long periodMillis) {
		if (periodMillis < 1) {
			throw new IllegalArgumentException("The period must be positive, was " + periodMillis);
		}
		this.periodMillis = periodMillis;
	}

	@Override
	public long next(long afterMillis) {
		return (Math.floorDiv(afterMillis, this.periodMillis) + 1) * this.periodMillis;
	}

	@Override
	public long count(long afterMillis, long upToMillis, long limit) {
		if (upToMillis <= afterMillis) {
			return 0;
		}
		long count = Math.floorDiv(upToMillis, this.periodMillis) - Math.floorDiv(afterMillis, this.periodMillis);
		return Math.min(count, limit);
	}

}
