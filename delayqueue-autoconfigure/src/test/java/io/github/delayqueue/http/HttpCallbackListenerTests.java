package io.github.delayqueue.http;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import io.github.delayqueue.core.NonRetryableJobException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatNoException;

/**
 * What {@link HttpCallbackListener} checks just before a call, with host names resolved
 * by a stand-in for DNS that can change its answer, as a rebinding attacker's does.
 */
class HttpCallbackListenerTests {

	private final AtomicReference<String> partnerAddress = new AtomicReference<>("93.184.216.34");

	private final HttpCallbackValidator validator = new HttpCallbackValidator("http-callback",
			List.of("partner.example"), this::resolve);

	private final RecordingExecutor executor = new RecordingExecutor();

	private final HttpCallbackListener listener = new HttpCallbackListener(this.validator, this.executor);

	@Test
	void callsANameThatResolvesToAPublicAddressAtTheAddressItChecked() throws Exception {
		HttpCallback callback = HttpCallback.get("https://partner.example/notify").build();

		this.listener.call(callback);

		assertThat(this.executor.calls).containsExactly(callback);
		assertThat(this.executor.addresses).containsExactly(List.of(InetAddress.getByName("93.184.216.34")));
	}

	@Test
	void makesDeadWithoutCallingANameThatNowResolvesToAPrivateAddress() {
		HttpCallback callback = HttpCallback.get("https://partner.example/notify").build();
		assertThatNoException().isThrownBy(() -> this.validator.validate("http-callback", callback));

		// DNS rebinding: public when sent, private when due.
		this.partnerAddress.set("192.168.0.10");

		assertThatExceptionOfType(NonRetryableJobException.class).isThrownBy(() -> this.listener.call(callback))
			.withMessageContaining("HTTP callback host 'partner.example' of GET https://partner.example/notify is "
					+ "refused: it resolves to 192.168.0.10, a non-public address (private)")
			.withMessageContaining("delayqueue.http-callback.allowed-hosts");
		assertThat(this.executor.calls).isEmpty();
	}

	@Test
	void retriesWithoutCallingANameThatCannotBeResolved() {
		this.partnerAddress.set(null);

		assertThatExceptionOfType(HttpCallbackException.class)
			.isThrownBy(() -> this.listener.call(HttpCallback.get("https://partner.example/").build()))
			.withMessageContaining("cannot be resolved");
		assertThat(this.executor.calls).isEmpty();
	}

	@Test
	void makesDeadWithoutCallingEveryCallbackWhenTheListIsEmpty() {
		HttpCallbackListener closed = new HttpCallbackListener(
				new HttpCallbackValidator("http-callback", List.of(), this::resolve), this.executor);

		assertThatExceptionOfType(NonRetryableJobException.class)
			.isThrownBy(() -> closed.call(HttpCallback.get("https://partner.example/").build()))
			.withMessageContaining("delayqueue.http-callback.allowed-hosts is empty");
		assertThat(this.executor.calls).isEmpty();
	}

	private InetAddress[] resolve(String host) throws UnknownHostException {
		String address = this.partnerAddress.get();
		if (!host.equals("partner.example") || address == null) {
			throw new UnknownHostException(host);
		}
		return new InetAddress[] { InetAddress.getByName(address) };
	}

	/**
	 * Records the callbacks it is asked to perform instead of performing them.
	 */
	static class RecordingExecutor extends HttpCallbackExecutor {

		final List<HttpCallback> calls = new ArrayList<>();

		final List<List<InetAddress>> addresses = new ArrayList<>();

		@Override
		public void execute(HttpCallback callback, List<InetAddress> addresses) {
			this.calls.add(callback);
			this.addresses.add(addresses);
		}

	}

}
