package org.bftws.config;

/** The three deployments of the BFT-WS paper, section 3.3 (Fig. 3). */
public enum Configuration {
    /** 3f+1 replicas that both order and execute. */
    I,
    /** 3f+1 replicas order; 2f+1 of them also execute, the other f only order. */
    II,
    /** 3f+1 agreement nodes order and forward to 2f+1 separate execution nodes. */
    III
}
