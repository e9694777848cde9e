package io.github.delayqueue.internal.dashboard;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;

import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.WindowType;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;

/**
 * Debian's Chromium, headless, driven through its chromedriver. Where they are missing a
 * developer's run skips the browser tests with the command that installs them, but CI
 * (where {@code CI=true}, and {@code .ci/run} installs both) fails instead.
 */
final class HeadlessChromium implements AutoCloseable {

	private static final List<String> BROWSERS = List.of("/usr/bin/chromium", "/usr/bin/chromium-browser");

	private static final List<String> DRIVERS = List.of("/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver");

	private final ChromeDriver driver;

	private HeadlessChromium(ChromeDriver driver) {
		this.driver = driver;
	}

	static HeadlessChromium start() {
		File browser = first("CHROMIUM_BINARY", BROWSERS);
		File driver = first("CHROMEDRIVER", DRIVERS);
		if (browser == null || driver == null) {
			String missing = "Headless Chromium is missing (apt-get install chromium chromium-driver)";
			if ("true".equals(System.getenv("CI"))) {
				throw new IllegalStateException(missing + "; .ci/run installs it");
			}
			Assumptions.abort(missing);
		}
		ChromeOptions options = new ChromeOptions();
		options.setBinary(browser);
		options.setCapability("goog:loggingPrefs", Map.of("browser", "ALL"));
		options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
				"--window-size=1280,900", "--lang=en-US");
		ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(driver)
			.usingAnyFreePort()
			.build();
		ChromeDriver chrome = new ChromeDriver(service, options);
		chrome.manage().timeouts().scriptTimeout(Duration.ofSeconds(30));
		return new HeadlessChromium(chrome);
	}

	private static File first(String variable, List<String> candidates) {
		String chosen = System.getenv(variable);
		if (chosen != null) {
			return new File(chosen);
		}
		return candidates.stream().map(File::new).filter(File::canExecute).findFirst().orElse(null);
	}

	void open(String url) {
		this.driver.get(url);
	}

	List<WebElement> all(String css) {
		return this.driver.findElements(By.cssSelector(css));
	}

	WebElement one(String css) {
		return this.driver.findElement(By.cssSelector(css));
	}

	// The page redraws its tables every few seconds, so an element found a moment ago may
	// be gone: such a read or click is tried again on the element that replaced it.
	String text(String css) {
		for (int attempt = 1;; attempt++) {
			try {
				List<WebElement> found = all(css);
				return found.isEmpty() ? "" : found.get(0).getText();
			}
			catch (StaleElementReferenceException ex) {
				if (attempt == 5) {
					throw ex;
				}
			}
		}
	}

	void click(String css) {
		for (int attempt = 1;; attempt++) {
			try {
				one(css).click();
				return;
			}
			catch (StaleElementReferenceException ex) {
				if (attempt == 5) {
					throw ex;
				}
			}
		}
	}

	/**
	 * Run a fetch in the page and return the HTTP status it got, or -1 when the browser
	 * refused to show the answer (as it does for another origin's).
	 */
	long fetchStatus(String method, String url) {
		Object status = this.driver.executeAsyncScript("""
				const done = arguments[arguments.length - 1];
				fetch(arguments[0], { method: arguments[1] })
					.then((response) => done(response.status), () => done(-1));
				""", url, method);
		return ((Number) status).longValue();
	}

	/**
	 * Open a new tab in front of the page, which is then hidden; returns the page's
	 * handle.
	 */
	String hideBehindNewTab() {
		String page = this.driver.getWindowHandle();
		this.driver.switchTo().newWindow(WindowType.TAB);
		return page;
	}

	/** Bring a tab to the front again. */
	void show(String tab) {
		this.driver.switchTo().window(tab);
	}

	boolean hidden() {
		return Boolean.TRUE.equals(this.driver.executeScript("return document.hidden"));
	}

	/** Scroll the page so that an element shows at the top of the window. */
	void scrollTo(String css) {
		this.driver.executeScript("arguments[0].scrollIntoView({block: 'start'})", one(css));
	}

	/** Show the page as a browser set to the dark theme would. */
	void preferDark(boolean dark) {
		this.driver.executeCdpCommand("Emulation.setEmulatedMedia",
				Map.of("features", List.of(Map.of("name", "prefers-color-scheme", "value", dark ? "dark" : "light"))));
	}

	/** The errors the browser wrote to its console since the last call, one line each. */
	List<String> consoleErrors() {
		return this.driver.manage()
			.logs()
			.get(LogType.BROWSER)
			.getAll()
			.stream()
			.filter((entry) -> entry.getLevel().intValue() >= Level.SEVERE.intValue())
			.map(LogEntry::getMessage)
			.toList();
	}

	/**
	 * Save a screenshot in the light theme as {@code <name>.png} and one in the dark
	 * theme as {@code <name>-dark.png}, and leave the page in the light theme.
	 * @param name the name of the light one
	 * @throws IOException if a file cannot be written
	 */
	void screenshotsLightAndDark(String name) throws IOException {
		preferDark(false);
		screenshot(name);
		preferDark(true);
		screenshot(name + "-dark");
		preferDark(false);
	}

	/**
	 * Forget every cookie of the page's site, so that the next user starts logged out.
	 */
	void forgetCookies() {
		this.driver.manage().deleteAllCookies();
	}

	Path screenshot(String name) throws IOException {
		Path target = Path.of("target", "screenshots", name + ".png");
		Files.createDirectories(target.getParent());
		Files.write(target, this.driver.getScreenshotAs(OutputType.BYTES));
		return target;
	}

	@Override
	public void close() {
		this.driver.quit();
	}

}
