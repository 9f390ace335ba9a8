/**
 * The incidents' faults in a service's own integration tests, on the servers the tests already run:
 * {@link io.faultline.testcontainers.PostgresFaults} holds a long transaction open, locks a hot
 * row, or fills one backend with subtransactions, each undone when closed. See {@code
 * docs/testing-your-service.md}.
 */
package io.faultline.testcontainers;
