package io.github.delayqueue.internal.dashboard;

import java.time.DayOfWeek;
import java.time.Duration;
import java.time.Month;
import java.time.format.TextStyle;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * A schedule's ticks in words, for the dashboard: "every 5 minutes", "every day at
 * 02:00", "every Monday to Friday at 09:30". The common shapes of cron expressions are
 * told; anything else is left to the expression itself.
 *
 * @author delayqueue contributors
 */
final class CronDescription {

	private static final Map<String, String> MACROS = Map.of("@yearly", "every year on 1 January at 00:00", "@annually",
			"every year on 1 January at 00:00", "@monthly", "on day 1 of every month at 00:00", "@weekly",
			"every Sunday at 00:00", "@daily", "every day at 00:00", "@midnight", "every day at 00:00", "@hourly",
			"every hour");

	private CronDescription() {
	}

	/**
	 * Describe a fixed rate.
	 * @param every the rate
	 * @return the description, such as {@code every 5 minutes}
	 */
	static String of(Duration every) {
		List<String> parts = new ArrayList<>();
		add(parts, every.toDaysPart(), "day");
		add(parts, every.toHoursPart(), "hour");
		add(parts, every.toMinutesPart(), "minute");
		add(parts, every.toSecondsPart(), "second");
		add(parts, every.toMillisPart(), "millisecond");
		if (parts.size() == 1 && parts.get(0).startsWith("1 ")) {
			return "every " + parts.get(0).substring(2);
		}
		return "every " + String.join(" ", parts);
	}

	private static void add(List<String> parts, long amount, String unit) {
		if (amount > 0) {
			parts.add(amount + " " + unit + ((amount > 1) ? "s" : ""));
		}
	}

	/**
	 * Describe a cron expression.
	 * @param cron the expression, six fields or a macro
	 * @return the description, or {@code null} for a shape it does not tell
	 */
	static @Nullable String of(String cron) {
		String macro = MACROS.get(cron.trim().toLowerCase(Locale.ROOT));
		if (macro != null) {
			return macro;
		}
		String[] f = cron.trim().split("\\s+");
		if (f.length != 6 || !f[4].equals("*") && !number(f[4]) && month(f[4]) == null) {
			return null;
		}
		String second = f[0];
		String minute = f[1];
		String hour = f[2];
		boolean everyDay = f[3].equals("*") && f[4].equals("*") && (f[5].equals("*") || f[5].equals("?"));
		if (everyDay && hour.equals("*") && minute.equals("*")) {
			Integer step = step(second);
			return second.equals("*") ? "every second" : (step != null) ? "every " + step + " seconds"
					: number(second) ? "every minute" + atSecond(second) : null;
		}
		if (!number(second)) {
			return null;
		}
		if (everyDay && hour.equals("*")) {
			Integer step = step(minute);
			if (step != null) {
				return "every " + step + " minutes" + atSecond(second);
			}
			return number(minute)
					? "every hour" + ((Integer.parseInt(minute) > 0) ? " at minute " + minute : "") + atSecond(second)
					: null;
		}
		if (!number(minute)) {
			return null;
		}
		Integer hours = step(hour);
		if (everyDay && hours != null) {
			return "every " + hours + " hours at minute " + minute + atSecond(second);
		}
		if (!number(hour)) {
			return null;
		}
		String at = " at " + time(hour, minute, second);
		if (everyDay) {
			return "every day" + at;
		}
		if (f[3].equals("*") || f[3].equals("?")) {
			String days = days(f[5]);
			return (f[4].equals("*") && days != null) ? "every " + days + at : null;
		}
		if (number(f[3]) && (f[5].equals("*") || f[5].equals("?"))) {
			if (f[4].equals("*")) {
				return "on day " + f[3] + " of every month" + at;
			}
			Month month = number(f[4]) ? Month.of(Integer.parseInt(f[4])) : month(f[4]);
			return "every year on " + f[3] + " " + month.getDisplayName(TextStyle.FULL, Locale.ENGLISH) + at;
		}
		return null;
	}

	private static String atSecond(String second) {
		return (Integer.parseInt(second) > 0) ? " at second " + second : "";
	}

	private static String time(String hour, String minute, String second) {
		String time = String.format(Locale.ROOT, "%02d:%02d", Integer.parseInt(hour), Integer.parseInt(minute));
		return (Integer.parseInt(second) > 0) ? time + String.format(Locale.ROOT, ":%02d", Integer.parseInt(second))
				: time;
	}

	private static @Nullable Integer step(String field) {
		if (field.startsWith("*/") || field.startsWith("0/")) {
			String step = field.substring(2);
			return number(step) ? Integer.valueOf(step) : null;
		}
		return null;
	}

	// MON-FRI, 1-5, SAT,SUN or one day, in Spring's numbering (0 and 7 are Sunday).
	private static @Nullable String days(String field) {
		String[] range = field.split("-");
		if (range.length == 2 && day(range[0]) != null && day(range[1]) != null) {
			return name(day(range[0])) + " to " + name(day(range[1]));
		}
		List<String> names = new ArrayList<>();
		for (String day : field.split(",")) {
			DayOfWeek parsed = day(day);
			if (parsed == null) {
				return null;
			}
			names.add(name(parsed));
		}
		return (names.size() == 1) ? names.get(0)
				: String.join(", ", names.subList(0, names.size() - 1)) + " and " + names.get(names.size() - 1);
	}

	private static @Nullable DayOfWeek day(String text) {
		if (number(text)) {
			int day = Integer.parseInt(text);
			return (day >= 0 && day <= 7) ? DayOfWeek.of((day == 0) ? 7 : day) : null;
		}
		for (DayOfWeek day : DayOfWeek.values()) {
			if (day.name().substring(0, 3).equalsIgnoreCase(text)) {
				return day;
			}
		}
		return null;
	}

	private static String name(DayOfWeek day) {
		return day.getDisplayName(TextStyle.FULL, Locale.ENGLISH);
	}

	private static @Nullable Month month(String text) {
		for (Month month : Month.values()) {
			if (month.name().substring(0, 3).equalsIgnoreCase(text)) {
				return month;
			}
		}
		return null;
	}

	private static boolean number(String text) {
		return !text.isEmpty() && text.length() <= 2 && text.chars().allMatch(Character::isDigit);
	}

}
