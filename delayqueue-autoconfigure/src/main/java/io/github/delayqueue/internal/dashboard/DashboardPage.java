package io.github.delayqueue.internal.dashboard;

/**
 * The dashboard's page: a shell that loads the stylesheets and the script module, which
 * draw everything from the JSON API. It holds no inline script or style, so that it runs
 * under a Content-Security-Policy that allows neither.
 *
 * @author delayqueue contributors
 */
final class DashboardPage {

	private static final String TEMPLATE = """
			<!DOCTYPE html>
			<html lang="en">
			<head>
			<meta charset="utf-8">
			<meta name="viewport" content="width=device-width, initial-scale=1">
			<meta name="color-scheme" content="light dark">
			<title>delayqueue</title>
			<link rel="icon" type="image/svg+xml" href="{last}/assets/favicon.svg">
			<link rel="stylesheet" href="{last}/assets/uplot/uPlot.min.css">
			<link rel="stylesheet" href="{last}/assets/dashboard.css">
			<script type="module" src="{last}/assets/app.js"></script>
			</head>
			<body>
			<noscript>The delayqueue dashboard needs JavaScript. Its JSON API is at
			<a href="{last}/api/topics">{last}/api/topics</a>.</noscript>
			</body>
			</html>
			""";

	private DashboardPage() {
	}

	/**
	 * Return the page served at a path. Its links are relative to the path's parent, so
	 * that they hold under any context path and behind a proxy that adds a prefix.
	 * @param path the dashboard's path
	 * @return the page
	 */
	static String html(String path) {
		return TEMPLATE.replace("{last}", lastSegment(path));
	}

	/**
	 * Return the last segment of a path, which links relative to the path's parent start
	 * with.
	 * @param path the dashboard's path
	 * @return its last segment
	 */
	static String lastSegment(String path) {
		return path.substring(path.lastIndexOf('/') + 1);
	}

}
