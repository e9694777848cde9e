package io.github.delayqueue.internal.store;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Tests for {@link LuaScriptAssembler}, on small scripts of the test classpath.
 */
class LuaScriptAssemblerTests {

	private final LuaScriptAssembler assembler = new LuaScriptAssembler(
			"io/github/delayqueue/internal/store/assembly/");

	@Test
	void putsEachLibraryOnceAfterTheLibrariesItNeedsThenTheScript() {
		assertThat(this.assembler.libraries("needs-in-order")).containsExactly("base", "middle", "top");
		assertThat(this.assembler.assemble("needs-in-order")).isEqualTo("""
				-- needs: none
				local function base() return 1 end
				-- needs: base
				local function middle() return base() end
				-- needs: base, middle
				local function top() return middle() + base() end
				-- needs: top, base
				return top()
				""");
	}

	@Test
	void failsNamingTheScriptAndTheUnknownLibrary() {
		assertThatIllegalStateException().isThrownBy(() -> this.assembler.assemble("needs-unknown"))
			.withMessageContaining("Lua script 'needs-unknown' needs the unknown library 'clock-typo'");
	}

	@Test
	void failsNamingTheLibraryThatNamesAnUnknownOne() {
		assertThatIllegalStateException().isThrownBy(() -> this.assembler.assemble("needs-missing-through-library"))
			.withMessageContaining("Lua script 'needs-missing-through-library' needs the unknown library 'missing'")
			.withMessageContaining("named by library 'uses-missing'");
	}

	@Test
	void failsForLibrariesThatNeedEachOther() {
		assertThatIllegalStateException().isThrownBy(() -> this.assembler.assemble("needs-a-cycle"))
			.withMessageContaining("'needs-a-cycle'")
			.withMessageContaining("ping -> pong -> ping");
	}

	@Test
	void failsForAScriptThatDoesNotSayWhatItNeeds() {
		assertThatIllegalStateException().isThrownBy(() -> this.assembler.assemble("says-no-needs"))
			.withMessageContaining("Lua script 'says-no-needs' does not start with '-- needs:");
	}

	@Test
	void failsForAnUnknownScript() {
		assertThatIllegalStateException().isThrownBy(() -> this.assembler.assemble("absent"))
			.withMessageContaining("No Lua script 'absent'");
	}

}
