/**
 * The incidents' faults in a service's own integration tests, on the servers the tests already run:
 * {@link io.faultline.testcontainers.PostgresFaults} holds a long transaction open, locks a hot
 * row, or fills one backend with subtransactions; {@link io.faultline.testcontainers.KafkaFaults}
 * loses window scaling on a broker's new connections, slows its link, restarts it with a preferred
 * leader election, or gives it a small listen backlog. Each is undone when closed. See {@code
 * docs/testing-your-service.md}.
 */
package io.faultline.testcontainers;
