package io.github.delayqueue.benchmark;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

class ScriptCostsTests {

	@TempDir
	Path folder;

	@Test
	void sumsEachScriptOfTheTopicWithTheCommandsItRanJustBeforeIt() throws IOException {
		// As redis-cli --json SLOWLOG GET prints it: newest first; the Lua client is ?:0.
		Path slowlog = this.folder.resolve("slowlog.json");
		Files.writeString(slowlog, """
				[[9,1,300,["EVALSHA","aa","2","{dq:orders}:running","{dq:orders}:jobs"],"127.0.0.1:5",""],
				[8,1,40,["HDEL","{dq:orders}:jobs","order-2"],"?:0",""],
				[7,1,3,["EXISTS","{dq:orders}:timeline:order-2"],"?:0",""],
				[6,1,50,["EVALSHA","bb","1","{dq:other}:running"],"127.0.0.1:5",""],
				[5,1,10,["HDEL","{dq:other}:jobs","x"],"?:0",""],
				[4,1,100,["EVALSHA","aa","2","{dq:orders}:running","{dq:orders}:jobs"],"127.0.0.1:5",""],
				[3,1,20,["HDEL","{dq:orders}:jobs","order-1"],"?:0",""],
				[2,1,1,["EXISTS","{dq:orders}:timeline:order-1"],"?:0",""],
				[1,1,7,["GET","{dq:orders}:paused"],"127.0.0.1:5",""],
				[0,1,2,[],"127.0.0.1:5",""]]
				""");

		String table = ScriptCosts.read(slowlog, "orders");

		assertThat(table).contains("| **:running** | 2 | | 200.0 | 400 |")
			.contains("| HDEL :jobs | | 1.0 | 30.0 | 60 |")
			.contains("| EXISTS :timeline:<id> | | 1.0 | 2.0 | 4 |")
			.contains("| all commands inside | | | 32.0 | 64 |")
			.doesNotContain("other")
			.doesNotContain("paused");
	}

}
