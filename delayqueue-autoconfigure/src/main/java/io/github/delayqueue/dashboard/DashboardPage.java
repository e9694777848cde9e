package io.github.delayqueue.dashboard;

/**
 * The dashboard's page. For now a page that names the JSON API; the charts and tables
 * that call it come as static assets of their own, so that the page needs no inline
 * script under its Content-Security-Policy.
 *
 * @author delayqueue contributors
 */
final class DashboardPage {

	private static final String TEMPLATE = """
			<!DOCTYPE html>
			<html lang="en">
			<head>
			<meta charset="utf-8">
			<title>delayqueue</title>
			</head>
			<body>
			<h1>delayqueue</h1>
			<p>The dashboard's JSON API: <a href="{last}/api/topics">topics</a>,
			<a href="{last}/api/history?range=hour">last hour</a>,
			<a href="{last}/api/history?range=month">last 30 days</a>.</p>
			</body>
			</html>
			""";

	private DashboardPage() {
	}

	/**
	 * Return the page served at a path. Its links are relative, so that they hold under
	 * any context path and behind a proxy that adds a prefix.
	 * @param path the dashboard's path
	 * @return the page
	 */
	static String html(String path) {
		return TEMPLATE.replace("{last}", path.substring(path.lastIndexOf('/') + 1));
	}

}
