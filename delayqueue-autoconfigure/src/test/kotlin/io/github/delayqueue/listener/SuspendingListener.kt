package io.github.delayqueue.listener

import io.github.delayqueue.annotation.DelayedJobListener
import io.github.delayqueue.core.DelayedJob
import java.util.concurrent.CompletableFuture
import java.util.function.Consumer
import java.util.function.Function
import kotlinx.coroutines.delay
import kotlinx.coroutines.future.await

/**
 * Listeners written as Kotlin suspend functions, as an application writes them. The test
 * decides when each completes through the future it hands out.
 */
class SuspendingListener(
    private val work: Function<DelayedJob<String>, CompletableFuture<String>>,
    private val payloads: Consumer<String>,
) {

    @DelayedJobListener("suspending")
    suspend fun on(job: DelayedJob<String>): String {
        delay(1)
        return work.apply(job).await()
    }

    @DelayedJobListener("suspending.payload")
    suspend fun onPayload(payload: String) {
        delay(1)
        payloads.accept(payload)
    }

}
