package io.github.delayqueue.actuate;

import java.util.List;

/**
 * Describes the job listeners running on this instance, for the
 * {@link DelayQueueEndpoint}. It keeps the endpoint independent of how listeners are run.
 *
 * @author delayqueue contributors
 */
@FunctionalInterface
public interface ListenerInfoSource {

	/**
	 * A source that knows no listeners, for instances that only send jobs.
	 */
	ListenerInfoSource NONE = List::of;

	/**
	 * Describe every listener of this instance.
	 * @return the listeners
	 */
	List<DelayQueueEndpoint.ListenerDescriptor> listeners();

}
