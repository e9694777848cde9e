package io.github.delayqueue.internal.dashboard;

import java.security.Principal;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import org.springframework.security.authentication.AnonymousAuthenticationToken;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.authority.AuthorityUtils;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The origin rule on its own, for what the servers in the other tests do not show: which
 * principals count as logged in and which host names cannot be rebound.
 */
class OriginGuardTests {

	private final OriginGuard guard = new OriginGuard(List.of(), "delayqueue.dashboard.allowed-origins");

	@Test
	void anAnonymousPrincipalIsNotLoggedIn() {
		AnonymousAuthenticationToken anonymous = new AnonymousAuthenticationToken("key", "anonymousUser",
				AuthorityUtils.createAuthorityList("ROLE_ANONYMOUS"));
		UsernamePasswordAuthenticationToken user = UsernamePasswordAuthenticationToken.authenticated("ops", null,
				AuthorityUtils.createAuthorityList("ROLE_OPS"));

		assertThat(OriginGuard.isAuthenticated(null)).isFalse();
		assertThat(OriginGuard.isAuthenticated(anonymous)).isFalse();
		assertThat(OriginGuard.isAuthenticated(user)).isTrue();
		assertThat(this.guard.changeRefusal(request("attacker.example", "http://attacker.example", anonymous)))
			.contains("DNS rebinding")
			.contains("delayqueue.dashboard.allowed-origins");
		assertThat(this.guard.changeRefusal(request("attacker.example", "http://attacker.example", user))).isNull();
	}

	@Test
	void onlyAddressesAndLocalhostCannotBeRebound() {
		assertThat(List.of("localhost", "LOCALHOST", "127.0.0.1", "10.1.2.3", "[::1]", "::1", "[fd00::5]"))
			.allSatisfy((host) -> assertThat(OriginGuard.cannotBeRebound(host)).as(host).isTrue());
		assertThat(List.of("localhost.", "app.localhost", "127.0.0.1.nip.io", "attacker.example", "1.2.3.4.5", ""))
			.allSatisfy((host) -> assertThat(OriginGuard.cannotBeRebound(host)).as(host).isFalse());
	}

	private static OriginGuard.Request request(String host, String origin, @Nullable Principal principal) {
		Map<String, String> headers = Map.of("Origin", origin);
		return new OriginGuard.Request() {

			@Override
			public String scheme() {
				return "http";
			}

			@Override
			public String host() {
				return host;
			}

			@Override
			public int port() {
				return 80;
			}

			@Override
			public @Nullable String header(String name) {
				return headers.get(name);
			}

			@Override
			public @Nullable Principal principal() {
				return principal;
			}

		};
	}

}
