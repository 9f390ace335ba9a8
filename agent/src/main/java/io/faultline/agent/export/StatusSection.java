package io.faultline.agent.export;

/**
 * One section of the agent's status page, e.g. broker connections or transaction hotspots.
 * Contribute one with {@code AgentRuntime.get().statusPage().add(section)}; it is rendered on every
 * page load, on the endpoint's thread, so {@link #render} must be quick and must only read
 * (snapshots, not locks held for long). A section that throws is shown as failed; the page still
 * renders.
 */
public interface StatusSection {

  /** The heading, e.g. {@code Broker connections}. */
  String title();

  /** Where it goes on the page: lower first. Built-in sections use 10–90 and 900+. */
  default int order() {
    return 500;
  }

  /** Writes the body; every text given to {@code html} is escaped by it. */
  void render(HtmlWriter html);
}
