package io.faultline.agent.export;

/** Who may read one of the endpoint's pages. */
public enum Exposure {
  /** Every client that may reach the endpoint (and has the token, when one is set). */
  ON,
  /** Only clients on this host (a loopback address, e.g. through {@code kubectl port-forward}). */
  LOOPBACK,
  /** Nobody: the page is not served. */
  OFF
}
