// The schemas last generated from the TypeScript declarations, frozen while the declarations move to
// TypeBox (src/protocol/schema.ts): the document reads here only what is not yet declared there.
type JsonSchema = { [keyword: string]: unknown };

export interface WireTypes {
  results: Record<string, JsonSchema>;
  notifications: Record<string, JsonSchema>;
  events: Record<string, JsonSchema>;
  components: Record<string, JsonSchema>;
}

export const WIRE_TYPES: WireTypes = {
  "results": {
    "agent.answer": {
      "type": "object",
      "properties": {
        "state": {
          "type": "string",
          "enum": [
            "idle",
            "working",
            "blocked",
            "done",
            "unknown"
          ]
        },
        "elapsedMs": {
          "type": "number"
        },
        "prompt": {
          "$ref": "#/components/schemas/AgentPrompt"
        },
        "repeated": {
          "description": "This request repeated one already typed (same promptId and answer): nothing was typed again.",
          "type": "boolean",
          "const": true
        }
      },
      "required": [
        "state",
        "elapsedMs"
      ]
    },
    "agent.clearQueue": {
      "type": "object",
      "properties": {
        "cleared": {
          "type": "number"
        }
      },
      "required": [
        "cleared"
      ]
    },
    "agent.explain": {
      "type": "object",
      "properties": {
        "pane": {
          "type": "object",
          "properties": {
            "id": {
              "type": "string"
            },
            "name": {
              "anyOf": [
                {
                  "type": "null"
                },
                {
                  "type": "string"
                }
              ]
            }
          },
          "required": [
            "id",
            "name"
          ]
        },
        "agent": {
          "$ref": "#/components/schemas/AgentInfo"
        },
        "process": {
          "anyOf": [
            {
              "type": "null"
            },
            {
              "type": "object",
              "properties": {
                "pgid": {
                  "type": "number"
                },
                "pid": {
                  "type": "number"
                },
                "exe": {
                  "anyOf": [
                    {
                      "type": "null"
                    },
                    {
                      "type": "string"
                    }
                  ]
                },
                "argv": {
                  "type": "array",
                  "items": {
                    "type": "string"
                  }
                },
                "agentHint": {
                  "type": "string"
                }
              },
              "required": [
                "pgid",
                "pid",
                "exe",
                "argv"
              ]
            }
          ]
        },
        "detection": {
          "description": "null when no manifest applies (no agent identified)",
          "anyOf": [
            {
              "type": "null"
            },
            {
              "$ref": "#/components/schemas/DetectionExplain"
            }
          ]
        },
        "arbiter": {
          "$ref": "#/components/schemas/ArbiterExplain"
        },
        "prompt": {
          "description": "While blocked: the prompt, as in `agent`, with the reader that read it in its `source`.",
          "anyOf": [
            {
              "type": "null"
            },
            {
              "$ref": "#/components/schemas/AgentPrompt"
            }
          ]
        }
      },
      "required": [
        "pane",
        "agent",
        "process",
        "detection",
        "arbiter",
        "prompt"
      ]
    },
    "agent.focus": {
      "type": "object",
      "properties": {
        "id": {
          "description": "the pane id",
          "type": "string"
        },
        "name": {
          "anyOf": [
            {
              "type": "null"
            },
            {
              "type": "string"
            }
          ]
        },
        "workspace": {
          "type": "string"
        },
        "agent": {
          "description": "null when no agent is identified in the pane",
          "anyOf": [
            {
              "type": "null"
            },
            {
              "type": "string"
            }
          ]
        },
        "identity": {
          "type": "string",
          "enum": [
            "process",
            "report",
            "none"
          ]
        },
        "state": {
          "description": "`done` is idle while not seen",
          "type": "string",
          "enum": [
            "idle",
            "working",
            "blocked",
            "done",
            "unknown"
          ]
        },
        "rawState": {
          "type": "string",
          "enum": [
            "idle",
            "working",
            "blocked",
            "unknown"
          ]
        },
        "seen": {
          "type": "boolean"
        },
        "stateSince": {
          "type": "number"
        },
        "revision": {
          "type": "number"
        },
        "rule": {
          "description": "Which precedence entry decided (docs/arbitration.md): screen_rule, report, full_lifecycle, ...",
          "type": "string"
        },
        "source": {
          "description": "The evidence that decided: `screen:<rule id>`, `report:<source>`, `fallback:<reason>`, ...",
          "type": "string"
        },
        "title": {
          "anyOf": [
            {
              "type": "null"
            },
            {
              "type": "string"
            }
          ]
        },
        "progress": {
          "anyOf": [
            {
              "type": "null"
            },
            {
              "$ref": "#/components/schemas/AgentProgress"
            }
          ]
        },
        "queued": {
          "description": "prompts waiting in the pane's steering queue",
          "type": "number"
        },
        "metadata": {
          "description": "display-only metadata reported for the pane",
          "anyOf": [
            {
              "type": "null"
            },
            {
              "type": "object",
              "properties": {},
              "additionalProperties": {}
            }
          ]
        },
        "paneState": {
          "type": "string",
          "enum": [
            "running",
            "exited",
            "lost"
          ]
        },
        "prompt": {
          "$ref": "#/components/schemas/AgentPrompt"
        }
      },
      "required": [
        "id",
        "name",
        "workspace",
        "agent",
        "identity",
        "state",
        "rawState",
        "seen",
        "stateSince",
        "revision",
        "rule",
        "source",
        "title",
        "progress",
        "queued",
        "metadata",
        "paneState"
      ]
    },
    "agent.get": {
      "type": "object",
      "properties": {
        "id": {
          "description": "the pane id",
          "type": "string"
        },
        "name": {
          "anyOf": [
            {
              "type": "null"
            },
            {
              "type": "string"
            }
          ]
        },
        "workspace": {
          "type": "string"
        },
        "agent": {
          "description": "null when no agent is identified in the pane",
          "anyOf": [
            {
              "type": "null"
            },
            {
              "type": "string"
            }
          ]
        },
        "identity": {
          "type": "string",
          "enum": [
            "process",
            "report",
            "none"
          ]
        },
        "state": {
          "description": "`done` is idle while not seen",
          "type": "string",
          "enum": [
            "idle",
            "working",
            "blocked",
            "done",
            "unknown"
          ]
        },
        "rawState": {
          "type": "string",
          "enum": [
            "idle",
            "working",
            "blocked",
            "unknown"
          ]
        },
        "seen": {
          "type": "boolean"
        },
        "stateSince": {
          "type": "number"
        },
        "revision": {
          "type": "number"
        },
        "rule": {
          "description": "Which precedence entry decided (docs/arbitration.md): screen_rule, report, full_lifecycle, ...",
          "type": "string"
        },
        "source": {
          "description": "The evidence that decided: `screen:<rule id>`, `report:<source>`, `fallback:<reason>`, ...",
          "type": "string"
        },
        "title": {
          "anyOf": [
            {
              "type": "null"
            },
            {
              "type": "string"
            }
          ]
        },
        "progress": {
          "anyOf": [
            {
              "type": "null"
            },
            {
              "$ref": "#/components/schemas/AgentProgress"
            }
          ]
        },
        "queued": {
          "description": "prompts waiting in the pane's steering queue",
          "type": "number"
        },
        "metadata": {
          "description": "display-only metadata reported for the pane",
          "anyOf": [
            {
              "type": "null"
            },
            {
              "type": "object",
              "properties": {},
              "additionalProperties": {}
            }
          ]
        },
        "paneState": {
          "type": "string",
          "enum": [
            "running",
            "exited",
            "lost"
          ]
        },
        "prompt": {
          "$ref": "#/components/schemas/AgentPrompt"
        }
      },
      "required": [
        "id",
        "name",
        "workspace",
        "agent",
        "identity",
        "state",
        "rawState",
        "seen",
        "stateSince",
        "revision",
        "rule",
        "source",
        "title",
        "progress",
        "queued",
        "metadata",
        "paneState"
      ]
    },
    "agent.list": {
      "type": "object",
      "properties": {
        "seq": {
          "description": "The daemon-wide state_change_seq when the list was taken: pass it to `agent.wait` as `sinceSeq`.",
          "type": "number"
        },
        "agents": {
          "type": "array",
          "items": {
            "$ref": "#/components/schemas/AgentInfo"
          }
        },
        "workspaces": {
          "type": "array",
          "items": {
            "$ref": "#/components/schemas/WorkspaceRollup"
          }
        }
      },
      "required": [
        "seq",
        "agents",
        "workspaces"
      ]
    },
    "agent.prompt": {
      "anyOf": [
        {
          "type": "object",
          "properties": {
            "delivered": {
              "type": "boolean",
              "const": true
            },
            "seq": {
              "type": "number"
            }
          },
          "required": [
            "delivered",
            "seq"
          ]
        },
        {
          "type": "object",
          "properties": {
            "queued": {
              "type": "boolean",
              "const": true
            },
            "position": {
              "type": "number"
            }
          },
          "required": [
            "queued",
            "position"
          ]
        }
      ]
    },
    "agent.queue": {
      "type": "object",
      "properties": {
        "queued": {
          "type": "number"
        },
        "prompts": {
          "type": "array",
          "items": {
            "$ref": "#/components/schemas/QueuedPrompt"
          }
        }
      },
      "required": [
        "queued",
        "prompts"
      ]
    },
    "agent.read": {
      "type": "object",
      "properties": {
        "source": {
          "type": "string",
          "enum": [
            "screen",
            "detection",
            "scrollback"
          ]
        },
        "text": {
          "description": "For `detection`: the snapshot lines detection evaluates, joined with \"\\n\".",
          "type": "string"
        },
        "cols": {
          "type": "number"
        },
        "rows": {
          "type": "number"
        },
        "title": {
          "description": "What detection sees of the program's OSC title and progress (null until it emitted one).",
          "anyOf": [
            {
              "type": "null"
            },
            {
              "type": "string"
            }
          ]
        },
        "progress": {
          "anyOf": [
            {
              "type": "null"
            },
            {
              "$ref": "#/components/schemas/AgentProgress"
            }
          ]
        },
        "cursor": {
          "description": "For `detection` only: the cursor detection sees (0-based, in the screen).",
          "type": "object",
          "properties": {
            "x": {
              "type": "number"
            },
            "y": {
              "type": "number"
            }
          },
          "required": [
            "x",
            "y"
          ]
        }
      },
      "required": [
        "source",
        "text",
        "cols",
        "rows",
        "title",
        "progress"
      ]
    },
    "agent.wait": {
      "type": "object",
      "properties": {
        "matched": {
          "description": "The targets (as the caller named them) matching at the moment the wait ended.",
          "type": "array",
          "items": {
            "type": "string"
          }
        },
        "states": {
          "description": "Each target's displayed state at that moment; `gone` when its pane or agent is no longer there.",
          "type": "object",
          "properties": {},
          "additionalProperties": {
            "type": "string",
            "enum": [
              "idle",
              "working",
              "blocked",
              "done",
              "unknown",
              "gone"
            ]
          }
        },
        "seq": {
          "description": "The daemon-wide state_change_seq at that moment.",
          "type": "number"
        },
        "elapsedMs": {
          "type": "number"
        },
        "screens": {
          "description": "With `read`: the screen of each matched target when the wait ended.",
          "type": "object",
          "properties": {},
          "additionalProperties": {
            "type": "string"
          }
        }
      },
      "required": [
        "matched",
        "states",
        "seq",
        "elapsedMs"
      ]
    },
    "events.cursor": {
      "type": "object",
      "properties": {
        "cursor": {
          "type": "number"
        },
        "epoch": {
          "type": "string"
        },
        "oldest": {
          "type": "number"
        }
      },
      "required": [
        "cursor",
        "epoch",
        "oldest"
      ]
    },
    "events.read": {
      "type": "object",
      "properties": {
        "cursor": {
          "type": "number"
        },
        "epoch": {
          "type": "string"
        },
        "oldest": {
          "type": "number"
        },
        "events": {
          "type": "array",
          "items": {
            "type": "object",
            "properties": {
              "cursor": {
                "type": "number"
              },
              "ts": {
                "description": "ms since the epoch",
                "type": "number"
              },
              "kind": {
                "type": "string",
                "enum": [
                  "pane.created",
                  "pane.exited",
                  "pane.removed",
                  "agent.detected",
                  "agent.stateChanged",
                  "agent.seen",
                  "agent.released",
                  "agent.attention",
                  "agent.queueChanged",
                  "agent.promptChanged",
                  "metadata.changed",
                  "workspace.stateChanged",
                  "inbox.added",
                  "inbox.acknowledged"
                ]
              },
              "pane": {
                "anyOf": [
                  {
                    "type": "null"
                  },
                  {
                    "type": "object",
                    "properties": {
                      "id": {
                        "type": "string"
                      },
                      "name": {
                        "anyOf": [
                          {
                            "type": "null"
                          },
                          {
                            "type": "string"
                          }
                        ]
                      }
                    },
                    "required": [
                      "id",
                      "name"
                    ]
                  }
                ]
              },
              "data": {
                "anyOf": [
                  {
                    "$ref": "#/components/schemas/PaneInfo"
                  },
                  {
                    "type": "object",
                    "properties": {
                      "exitCode": {
                        "anyOf": [
                          {
                            "type": "null"
                          },
                          {
                            "type": "number"
                          }
                        ]
                      },
                      "signal": {
                        "anyOf": [
                          {
                            "type": "null"
                          },
                          {
                            "type": "number"
                          }
                        ]
                      }
                    },
                    "required": [
                      "exitCode",
                      "signal"
                    ]
                  },
                  {
                    "type": "object",
                    "properties": {
                      "exitCode": {
                        "anyOf": [
                          {
                            "type": "null"
                          },
                          {
                            "type": "number"
                          }
                        ]
                      },
                      "signal": {
                        "anyOf": [
                          {
                            "type": "null"
                          },
                          {
                            "type": "number"
                          }
                        ]
                      }
                    },
                    "required": [
                      "exitCode",
                      "signal"
                    ]
                  },
                  {
                    "type": "object",
                    "properties": {
                      "agent": {
                        "type": "string"
                      },
                      "previous": {
                        "anyOf": [
                          {
                            "type": "null"
                          },
                          {
                            "type": "string"
                          }
                        ]
                      },
                      "state": {
                        "type": "string",
                        "enum": [
                          "idle",
                          "working",
                          "blocked",
                          "done",
                          "unknown"
                        ]
                      },
                      "seq": {
                        "type": "number"
                      }
                    },
                    "required": [
                      "agent",
                      "previous",
                      "state",
                      "seq"
                    ]
                  },
                  {
                    "type": "object",
                    "properties": {
                      "agent": {
                        "anyOf": [
                          {
                            "type": "null"
                          },
                          {
                            "type": "string"
                          }
                        ]
                      },
                      "queued": {
                        "type": "number"
                      },
                      "seq": {
                        "type": "number"
                      }
                    },
                    "required": [
                      "agent",
                      "queued",
                      "seq"
                    ]
                  },
                  {
                    "type": "object",
                    "properties": {
                      "agent": {
                        "anyOf": [
                          {
                            "type": "null"
                          },
                          {
                            "type": "string"
                          }
                        ]
                      },
                      "from": {
                        "type": "string",
                        "enum": [
                          "idle",
                          "working",
                          "blocked",
                          "done",
                          "unknown"
                        ]
                      },
                      "to": {
                        "type": "string",
                        "enum": [
                          "idle",
                          "working",
                          "blocked",
                          "done",
                          "unknown"
                        ]
                      },
                      "rule": {
                        "type": "string"
                      },
                      "source": {
                        "type": "string"
                      },
                      "seen": {
                        "type": "boolean"
                      },
                      "revision": {
                        "type": "number"
                      },
                      "seq": {
                        "type": "number"
                      },
                      "recovered": {
                        "description": "A state of a pane taken back after a daemon restart, until it settles: recomputed, not a new turn.",
                        "type": "boolean",
                        "const": true
                      },
                      "outputEndedAt": {
                        "description": "On a recovered change to a state reached while no daemon ran: when the pty host last saw the pane's output (ms since the epoch).",
                        "type": "number"
                      },
                      "prompt": {
                        "$ref": "#/components/schemas/AgentPrompt"
                      }
                    },
                    "required": [
                      "agent",
                      "from",
                      "to",
                      "rule",
                      "source",
                      "seen",
                      "revision",
                      "seq"
                    ]
                  },
                  {
                    "type": "object",
                    "properties": {
                      "agent": {
                        "anyOf": [
                          {
                            "type": "null"
                          },
                          {
                            "type": "string"
                          }
                        ]
                      },
                      "state": {
                        "type": "string",
                        "enum": [
                          "idle",
                          "working",
                          "blocked",
                          "done",
                          "unknown"
                        ]
                      },
                      "seen": {
                        "type": "boolean"
                      },
                      "seq": {
                        "type": "number"
                      }
                    },
                    "required": [
                      "agent",
                      "state",
                      "seen",
                      "seq"
                    ]
                  },
                  {
                    "type": "object",
                    "properties": {
                      "agent": {
                        "anyOf": [
                          {
                            "type": "null"
                          },
                          {
                            "type": "string"
                          }
                        ]
                      },
                      "prompt": {
                        "$ref": "#/components/schemas/AgentPrompt"
                      },
                      "seq": {
                        "type": "number"
                      }
                    },
                    "required": [
                      "agent",
                      "prompt",
                      "seq"
                    ]
                  },
                  {
                    "type": "object",
                    "properties": {
                      "agent": {
                        "anyOf": [
                          {
                            "type": "null"
                          },
                          {
                            "type": "string"
                          }
                        ]
                      },
                      "state": {
                        "type": "string",
                        "enum": [
                          "idle",
                          "working",
                          "blocked",
                          "done",
                          "unknown"
                        ]
                      },
                      "seq": {
                        "type": "number"
                      }
                    },
                    "required": [
                      "agent",
                      "state",
                      "seq"
                    ]
                  },
                  {
                    "type": "object",
                    "properties": {
                      "agent": {
                        "anyOf": [
                          {
                            "type": "null"
                          },
                          {
                            "type": "string"
                          }
                        ]
                      },
                      "state": {
                        "type": "string",
                        "enum": [
                          "blocked",
                          "done"
                        ]
                      },
                      "from": {
                        "type": "string",
                        "enum": [
                          "idle",
                          "working",
                          "blocked",
                          "done",
                          "unknown"
                        ]
                      },
                      "title": {
                        "anyOf": [
                          {
                            "type": "null"
                          },
                          {
                            "type": "string"
                          }
                        ]
                      },
                      "message": {
                        "type": "string"
                      },
                      "seq": {
                        "type": "number"
                      },
                      "prompt": {
                        "$ref": "#/components/schemas/AgentPrompt"
                      }
                    },
                    "required": [
                      "agent",
                      "state",
                      "from",
                      "title",
                      "message",
                      "seq"
                    ]
                  },
                  {
                    "type": "object",
                    "properties": {
                      "metadata": {
                        "anyOf": [
                          {
                            "type": "null"
                          },
                          {
                            "type": "object",
                            "properties": {},
                            "additionalProperties": {}
                          }
                        ]
                      }
                    },
                    "required": [
                      "metadata"
                    ]
                  },
                  {
                    "type": "object",
                    "properties": {
                      "workspace": {
                        "type": "string"
                      },
                      "from": {
                        "anyOf": [
                          {
                            "type": "null"
                          },
                          {
                            "type": "string",
                            "const": "idle"
                          },
                          {
                            "type": "string",
                            "const": "working"
                          },
                          {
                            "type": "string",
                            "const": "blocked"
                          },
                          {
                            "type": "string",
                            "const": "done"
                          },
                          {
                            "type": "string",
                            "const": "unknown"
                          }
                        ]
                      },
                      "to": {
                        "anyOf": [
                          {
                            "type": "null"
                          },
                          {
                            "type": "string",
                            "const": "idle"
                          },
                          {
                            "type": "string",
                            "const": "working"
                          },
                          {
                            "type": "string",
                            "const": "blocked"
                          },
                          {
                            "type": "string",
                            "const": "done"
                          },
                          {
                            "type": "string",
                            "const": "unknown"
                          }
                        ]
                      },
                      "counts": {
                        "anyOf": [
                          {
                            "type": "null"
                          },
                          {
                            "type": "object",
                            "properties": {
                              "idle": {
                                "type": "number"
                              },
                              "working": {
                                "type": "number"
                              },
                              "blocked": {
                                "type": "number"
                              },
                              "done": {
                                "type": "number"
                              },
                              "unknown": {
                                "type": "number"
                              }
                            },
                            "required": [
                              "idle",
                              "working",
                              "blocked",
                              "done",
                              "unknown"
                            ]
                          }
                        ]
                      }
                    },
                    "required": [
                      "workspace",
                      "from",
                      "to",
                      "counts"
                    ]
                  },
                  {
                    "type": "object",
                    "properties": {
                      "item": {
                        "$ref": "#/components/schemas/InboxItem"
                      }
                    },
                    "required": [
                      "item"
                    ]
                  },
                  {
                    "type": "object",
                    "properties": {
                      "ids": {
                        "type": "array",
                        "items": {
                          "type": "number"
                        }
                      }
                    },
                    "required": [
                      "ids"
                    ]
                  }
                ]
              }
            },
            "required": [
              "cursor",
              "ts",
              "kind",
              "pane",
              "data"
            ]
          }
        },
        "more": {
          "type": "boolean"
        }
      },
      "required": [
        "cursor",
        "epoch",
        "oldest",
        "events",
        "more"
      ]
    },
    "events.subscribe": {
      "type": "object",
      "properties": {
        "cursor": {
          "type": "number"
        },
        "epoch": {
          "type": "string"
        },
        "snapshot": {
          "$ref": "#/components/schemas/EventsSnapshot"
        }
      },
      "required": [
        "cursor",
        "epoch",
        "snapshot"
      ]
    },
    "events.unsubscribe": {
      "type": "object",
      "properties": {
        "unsubscribed": {
          "type": "boolean"
        }
      },
      "required": [
        "unsubscribed"
      ]
    },
    "inbox.ack": {
      "type": "object",
      "properties": {
        "acknowledged": {
          "type": "array",
          "items": {
            "type": "number"
          }
        }
      },
      "required": [
        "acknowledged"
      ]
    },
    "inbox.list": {
      "type": "object",
      "properties": {
        "items": {
          "type": "array",
          "items": {
            "$ref": "#/components/schemas/InboxItem"
          }
        }
      },
      "required": [
        "items"
      ]
    },
    "pane.attach": {
      "type": "object",
      "properties": {
        "id": {
          "type": "string"
        },
        "name": {
          "anyOf": [
            {
              "type": "null"
            },
            {
              "type": "string"
            }
          ]
        },
        "cols": {
          "description": "the pane's size after the optional resize",
          "type": "number"
        },
        "rows": {
          "type": "number"
        }
      },
      "required": [
        "id",
        "name",
        "cols",
        "rows"
      ]
    },
    "pane.detach": {
      "type": "object",
      "properties": {
        "detached": {
          "type": "boolean"
        }
      },
      "required": [
        "detached"
      ]
    },
    "pane.focus": {
      "type": "object",
      "properties": {
        "id": {
          "description": "the pane id",
          "type": "string"
        },
        "name": {
          "anyOf": [
            {
              "type": "null"
            },
            {
              "type": "string"
            }
          ]
        },
        "workspace": {
          "type": "string"
        },
        "agent": {
          "description": "null when no agent is identified in the pane",
          "anyOf": [
            {
              "type": "null"
            },
            {
              "type": "string"
            }
          ]
        },
        "identity": {
          "type": "string",
          "enum": [
            "process",
            "report",
            "none"
          ]
        },
        "state": {
          "description": "`done` is idle while not seen",
          "type": "string",
          "enum": [
            "idle",
            "working",
            "blocked",
            "done",
            "unknown"
          ]
        },
        "rawState": {
          "type": "string",
          "enum": [
            "idle",
            "working",
            "blocked",
            "unknown"
          ]
        },
        "seen": {
          "type": "boolean"
        },
        "stateSince": {
          "type": "number"
        },
        "revision": {
          "type": "number"
        },
        "rule": {
          "description": "Which precedence entry decided (docs/arbitration.md): screen_rule, report, full_lifecycle, ...",
          "type": "string"
        },
        "source": {
          "description": "The evidence that decided: `screen:<rule id>`, `report:<source>`, `fallback:<reason>`, ...",
          "type": "string"
        },
        "title": {
          "anyOf": [
            {
              "type": "null"
            },
            {
              "type": "string"
            }
          ]
        },
        "progress": {
          "anyOf": [
            {
              "type": "null"
            },
            {
              "$ref": "#/components/schemas/AgentProgress"
            }
          ]
        },
        "queued": {
          "description": "prompts waiting in the pane's steering queue",
          "type": "number"
        },
        "metadata": {
          "description": "display-only metadata reported for the pane",
          "anyOf": [
            {
              "type": "null"
            },
            {
              "type": "object",
              "properties": {},
              "additionalProperties": {}
            }
          ]
        },
        "paneState": {
          "type": "string",
          "enum": [
            "running",
            "exited",
            "lost"
          ]
        },
        "prompt": {
          "$ref": "#/components/schemas/AgentPrompt"
        }
      },
      "required": [
        "id",
        "name",
        "workspace",
        "agent",
        "identity",
        "state",
        "rawState",
        "seen",
        "stateSince",
        "revision",
        "rule",
        "source",
        "title",
        "progress",
        "queued",
        "metadata",
        "paneState"
      ]
    },
    "pane.get": {
      "type": "object",
      "properties": {
        "args": {
          "type": "array",
          "items": {
            "type": "string"
          }
        },
        "env": {
          "description": "The environment the spawn asked for, as the daemon keeps it: secrets left out, their names in `droppedEnv`.",
          "type": "object",
          "properties": {},
          "additionalProperties": {
            "type": "string"
          }
        },
        "droppedEnv": {
          "type": "array",
          "items": {
            "type": "string"
          }
        },
        "process": {
          "description": "null once exited, or when /proc cannot be read",
          "anyOf": [
            {
              "type": "null"
            },
            {
              "$ref": "#/components/schemas/PaneProcess"
            }
          ]
        },
        "title": {
          "description": "the last OSC 0/2 title the program set",
          "anyOf": [
            {
              "type": "null"
            },
            {
              "type": "string"
            }
          ]
        },
        "id": {
          "description": "'w1:p1': workspace and pane, never reused within a daemon's life",
          "type": "string"
        },
        "name": {
          "anyOf": [
            {
              "type": "null"
            },
            {
              "type": "string"
            }
          ]
        },
        "workspace": {
          "type": "string"
        },
        "state": {
          "type": "string",
          "enum": [
            "running",
            "exited",
            "lost"
          ]
        },
        "command": {
          "type": "string"
        },
        "cwd": {
          "type": "string"
        },
        "pid": {
          "type": "number"
        },
        "cols": {
          "type": "number"
        },
        "rows": {
          "type": "number"
        },
        "createdAt": {
          "type": "number"
        },
        "exitedAt": {
          "anyOf": [
            {
              "type": "null"
            },
            {
              "type": "number"
            }
          ]
        },
        "exitCode": {
          "anyOf": [
            {
              "type": "null"
            },
            {
              "type": "number"
            }
          ]
        },
        "signal": {
          "anyOf": [
            {
              "type": "null"
            },
            {
              "type": "number"
            }
          ]
        },
        "recovered": {
          "description": "Present when the pane outlived a previous daemon and was taken back from the pty host.",
          "type": "boolean",
          "const": true
        },
        "previous": {
          "description": "On a lost pane: its agent, last state and session as the previous daemon knew them.",
          "type": "object",
          "properties": {
            "agent": {
              "anyOf": [
                {
                  "type": "null"
                },
                {
                  "type": "string"
                }
              ]
            },
            "state": {
              "type": "string"
            },
            "session": {
              "anyOf": [
                {
                  "type": "null"
                },
                {
                  "type": "string"
                }
              ]
            }
          },
          "required": [
            "agent",
            "state",
            "session"
          ]
        },
        "external": {
          "description": "An agent started outside Corral, known from its hook reports only (no process, no screen): their source and session.",
          "type": "object",
          "properties": {
            "source": {
              "type": "string"
            },
            "session": {
              "type": "string"
            }
          },
          "required": [
            "source",
            "session"
          ]
        }
      },
      "required": [
        "args",
        "env",
        "process",
        "title",
        "id",
        "name",
        "workspace",
        "state",
        "command",
        "cwd",
        "pid",
        "cols",
        "rows",
        "createdAt",
        "exitedAt",
        "exitCode",
        "signal"
      ]
    },
    "pane.kill": {
      "type": "object",
      "properties": {
        "id": {
          "description": "'w1:p1': workspace and pane, never reused within a daemon's life",
          "type": "string"
        },
        "name": {
          "anyOf": [
            {
              "type": "null"
            },
            {
              "type": "string"
            }
          ]
        },
        "workspace": {
          "type": "string"
        },
        "state": {
          "type": "string",
          "enum": [
            "running",
            "exited",
            "lost"
          ]
        },
        "command": {
          "type": "string"
        },
        "cwd": {
          "type": "string"
        },
        "pid": {
          "type": "number"
        },
        "cols": {
          "type": "number"
        },
        "rows": {
          "type": "number"
        },
        "createdAt": {
          "type": "number"
        },
        "exitedAt": {
          "anyOf": [
            {
              "type": "null"
            },
            {
              "type": "number"
            }
          ]
        },
        "exitCode": {
          "anyOf": [
            {
              "type": "null"
            },
            {
              "type": "number"
            }
          ]
        },
        "signal": {
          "anyOf": [
            {
              "type": "null"
            },
            {
              "type": "number"
            }
          ]
        },
        "recovered": {
          "description": "Present when the pane outlived a previous daemon and was taken back from the pty host.",
          "type": "boolean",
          "const": true
        },
        "previous": {
          "description": "On a lost pane: its agent, last state and session as the previous daemon knew them.",
          "type": "object",
          "properties": {
            "agent": {
              "anyOf": [
                {
                  "type": "null"
                },
                {
                  "type": "string"
                }
              ]
            },
            "state": {
              "type": "string"
            },
            "session": {
              "anyOf": [
                {
                  "type": "null"
                },
                {
                  "type": "string"
                }
              ]
            }
          },
          "required": [
            "agent",
            "state",
            "session"
          ]
        },
        "external": {
          "description": "An agent started outside Corral, known from its hook reports only (no process, no screen): their source and session.",
          "type": "object",
          "properties": {
            "source": {
              "type": "string"
            },
            "session": {
              "type": "string"
            }
          },
          "required": [
            "source",
            "session"
          ]
        }
      },
      "required": [
        "id",
        "name",
        "workspace",
        "state",
        "command",
        "cwd",
        "pid",
        "cols",
        "rows",
        "createdAt",
        "exitedAt",
        "exitCode",
        "signal"
      ]
    },
    "pane.list": {
      "type": "object",
      "properties": {
        "panes": {
          "type": "array",
          "items": {
            "$ref": "#/components/schemas/PaneInfo"
          }
        }
      },
      "required": [
        "panes"
      ]
    },
    "pane.read": {
      "type": "object",
      "properties": {
        "source": {
          "type": "string",
          "enum": [
            "screen",
            "scrollback"
          ]
        },
        "text": {
          "type": "string"
        },
        "cols": {
          "type": "number"
        },
        "rows": {
          "type": "number"
        },
        "more": {
          "type": "boolean"
        }
      },
      "required": [
        "source",
        "text",
        "cols",
        "rows"
      ]
    },
    "pane.record": {
      "type": "object",
      "properties": {
        "id": {
          "type": "string"
        },
        "name": {
          "anyOf": [
            {
              "type": "null"
            },
            {
              "type": "string"
            }
          ]
        },
        "cols": {
          "type": "number"
        },
        "rows": {
          "type": "number"
        },
        "startedAt": {
          "description": "Wall-clock ms the recording started at: every `pane.recorded` `at` is on the same clock.",
          "type": "number"
        }
      },
      "required": [
        "id",
        "name",
        "cols",
        "rows",
        "startedAt"
      ]
    },
    "pane.releaseAgent": {
      "type": "object",
      "properties": {
        "accepted": {
          "type": "boolean"
        },
        "reason": {
          "description": "a stable code, e.g. stale_seq, stale_generation, nested_agent (docs/reporting.md)",
          "type": "string"
        }
      },
      "required": [
        "accepted"
      ]
    },
    "pane.reportAgent": {
      "type": "object",
      "properties": {
        "accepted": {
          "type": "boolean"
        },
        "reason": {
          "description": "a stable code, e.g. stale_seq, stale_generation, nested_agent (docs/reporting.md)",
          "type": "string"
        }
      },
      "required": [
        "accepted"
      ]
    },
    "pane.reportMetadata": {
      "type": "object",
      "properties": {
        "metadata": {
          "anyOf": [
            {
              "type": "null"
            },
            {
              "$ref": "#/components/schemas/PaneMetadata"
            }
          ]
        }
      },
      "required": [
        "metadata"
      ]
    },
    "pane.reportSession": {
      "type": "object",
      "properties": {
        "accepted": {
          "type": "boolean"
        },
        "reason": {
          "description": "a stable code, e.g. stale_seq, stale_generation, nested_agent (docs/reporting.md)",
          "type": "string"
        }
      },
      "required": [
        "accepted"
      ]
    },
    "pane.resize": {
      "type": "object",
      "properties": {
        "id": {
          "description": "'w1:p1': workspace and pane, never reused within a daemon's life",
          "type": "string"
        },
        "name": {
          "anyOf": [
            {
              "type": "null"
            },
            {
              "type": "string"
            }
          ]
        },
        "workspace": {
          "type": "string"
        },
        "state": {
          "type": "string",
          "enum": [
            "running",
            "exited",
            "lost"
          ]
        },
        "command": {
          "type": "string"
        },
        "cwd": {
          "type": "string"
        },
        "pid": {
          "type": "number"
        },
        "cols": {
          "type": "number"
        },
        "rows": {
          "type": "number"
        },
        "createdAt": {
          "type": "number"
        },
        "exitedAt": {
          "anyOf": [
            {
              "type": "null"
            },
            {
              "type": "number"
            }
          ]
        },
        "exitCode": {
          "anyOf": [
            {
              "type": "null"
            },
            {
              "type": "number"
            }
          ]
        },
        "signal": {
          "anyOf": [
            {
              "type": "null"
            },
            {
              "type": "number"
            }
          ]
        },
        "recovered": {
          "description": "Present when the pane outlived a previous daemon and was taken back from the pty host.",
          "type": "boolean",
          "const": true
        },
        "previous": {
          "description": "On a lost pane: its agent, last state and session as the previous daemon knew them.",
          "type": "object",
          "properties": {
            "agent": {
              "anyOf": [
                {
                  "type": "null"
                },
                {
                  "type": "string"
                }
              ]
            },
            "state": {
              "type": "string"
            },
            "session": {
              "anyOf": [
                {
                  "type": "null"
                },
                {
                  "type": "string"
                }
              ]
            }
          },
          "required": [
            "agent",
            "state",
            "session"
          ]
        },
        "external": {
          "description": "An agent started outside Corral, known from its hook reports only (no process, no screen): their source and session.",
          "type": "object",
          "properties": {
            "source": {
              "type": "string"
            },
            "session": {
              "type": "string"
            }
          },
          "required": [
            "source",
            "session"
          ]
        }
      },
      "required": [
        "id",
        "name",
        "workspace",
        "state",
        "command",
        "cwd",
        "pid",
        "cols",
        "rows",
        "createdAt",
        "exitedAt",
        "exitCode",
        "signal"
      ]
    },
    "pane.respawn": {
      "type": "object",
      "properties": {
        "id": {
          "description": "'w1:p1': workspace and pane, never reused within a daemon's life",
          "type": "string"
        },
        "name": {
          "anyOf": [
            {
              "type": "null"
            },
            {
              "type": "string"
            }
          ]
        },
        "workspace": {
          "type": "string"
        },
        "state": {
          "type": "string",
          "enum": [
            "running",
            "exited",
            "lost"
          ]
        },
        "command": {
          "type": "string"
        },
        "cwd": {
          "type": "string"
        },
        "pid": {
          "type": "number"
        },
        "cols": {
          "type": "number"
        },
        "rows": {
          "type": "number"
        },
        "createdAt": {
          "type": "number"
        },
        "exitedAt": {
          "anyOf": [
            {
              "type": "null"
            },
            {
              "type": "number"
            }
          ]
        },
        "exitCode": {
          "anyOf": [
            {
              "type": "null"
            },
            {
              "type": "number"
            }
          ]
        },
        "signal": {
          "anyOf": [
            {
              "type": "null"
            },
            {
              "type": "number"
            }
          ]
        },
        "recovered": {
          "description": "Present when the pane outlived a previous daemon and was taken back from the pty host.",
          "type": "boolean",
          "const": true
        },
        "previous": {
          "description": "On a lost pane: its agent, last state and session as the previous daemon knew them.",
          "type": "object",
          "properties": {
            "agent": {
              "anyOf": [
                {
                  "type": "null"
                },
                {
                  "type": "string"
                }
              ]
            },
            "state": {
              "type": "string"
            },
            "session": {
              "anyOf": [
                {
                  "type": "null"
                },
                {
                  "type": "string"
                }
              ]
            }
          },
          "required": [
            "agent",
            "state",
            "session"
          ]
        },
        "external": {
          "description": "An agent started outside Corral, known from its hook reports only (no process, no screen): their source and session.",
          "type": "object",
          "properties": {
            "source": {
              "type": "string"
            },
            "session": {
              "type": "string"
            }
          },
          "required": [
            "source",
            "session"
          ]
        },
        "resumed": {
          "anyOf": [
            {
              "type": "null"
            },
            {
              "type": "string"
            }
          ]
        }
      },
      "required": [
        "id",
        "name",
        "workspace",
        "state",
        "command",
        "cwd",
        "pid",
        "cols",
        "rows",
        "createdAt",
        "exitedAt",
        "exitCode",
        "signal",
        "resumed"
      ]
    },
    "pane.send": {
      "type": "object",
      "properties": {
        "bytes": {
          "type": "number"
        }
      },
      "required": [
        "bytes"
      ]
    },
    "pane.spawn": {
      "type": "object",
      "properties": {
        "id": {
          "description": "'w1:p1': workspace and pane, never reused within a daemon's life",
          "type": "string"
        },
        "name": {
          "anyOf": [
            {
              "type": "null"
            },
            {
              "type": "string"
            }
          ]
        },
        "workspace": {
          "type": "string"
        },
        "state": {
          "type": "string",
          "enum": [
            "running",
            "exited",
            "lost"
          ]
        },
        "command": {
          "type": "string"
        },
        "cwd": {
          "type": "string"
        },
        "pid": {
          "type": "number"
        },
        "cols": {
          "type": "number"
        },
        "rows": {
          "type": "number"
        },
        "createdAt": {
          "type": "number"
        },
        "exitedAt": {
          "anyOf": [
            {
              "type": "null"
            },
            {
              "type": "number"
            }
          ]
        },
        "exitCode": {
          "anyOf": [
            {
              "type": "null"
            },
            {
              "type": "number"
            }
          ]
        },
        "signal": {
          "anyOf": [
            {
              "type": "null"
            },
            {
              "type": "number"
            }
          ]
        },
        "recovered": {
          "description": "Present when the pane outlived a previous daemon and was taken back from the pty host.",
          "type": "boolean",
          "const": true
        },
        "previous": {
          "description": "On a lost pane: its agent, last state and session as the previous daemon knew them.",
          "type": "object",
          "properties": {
            "agent": {
              "anyOf": [
                {
                  "type": "null"
                },
                {
                  "type": "string"
                }
              ]
            },
            "state": {
              "type": "string"
            },
            "session": {
              "anyOf": [
                {
                  "type": "null"
                },
                {
                  "type": "string"
                }
              ]
            }
          },
          "required": [
            "agent",
            "state",
            "session"
          ]
        },
        "external": {
          "description": "An agent started outside Corral, known from its hook reports only (no process, no screen): their source and session.",
          "type": "object",
          "properties": {
            "source": {
              "type": "string"
            },
            "session": {
              "type": "string"
            }
          },
          "required": [
            "source",
            "session"
          ]
        }
      },
      "required": [
        "id",
        "name",
        "workspace",
        "state",
        "command",
        "cwd",
        "pid",
        "cols",
        "rows",
        "createdAt",
        "exitedAt",
        "exitCode",
        "signal"
      ]
    },
    "rpc.discover": {
      "type": "object",
      "properties": {
        "openrpc": {
          "type": "string"
        },
        "info": {
          "type": "object",
          "properties": {
            "title": {
              "type": "string"
            },
            "version": {
              "type": "string"
            },
            "description": {
              "type": "string"
            }
          },
          "required": [
            "title",
            "version"
          ]
        },
        "methods": {
          "type": "array",
          "items": {}
        },
        "components": {
          "type": "object",
          "properties": {},
          "additionalProperties": {}
        }
      },
      "required": [
        "openrpc",
        "info",
        "methods"
      ]
    },
    "server.manifests": {
      "type": "object",
      "properties": {
        "manifests": {
          "type": "array",
          "items": {
            "$ref": "#/components/schemas/ManifestEntry"
          }
        },
        "errors": {
          "description": "files that failed to load; the rules they would have replaced stay in use",
          "type": "array",
          "items": {
            "$ref": "#/components/schemas/ManifestProblem"
          }
        }
      },
      "required": [
        "manifests",
        "errors"
      ]
    },
    "server.reloadConfig": {
      "type": "object",
      "properties": {
        "file": {
          "description": "The file read; null when the default path has no file (the embedded defaults apply).",
          "anyOf": [
            {
              "type": "null"
            },
            {
              "type": "string"
            }
          ]
        },
        "applied": {
          "description": "Changed keys now in effect.",
          "type": "array",
          "items": {
            "type": "string"
          }
        },
        "restart": {
          "description": "Changed keys that take effect only when the daemon starts again.",
          "type": "array",
          "items": {
            "type": "string"
          }
        }
      },
      "required": [
        "file",
        "applied",
        "restart"
      ]
    },
    "server.reloadManifests": {
      "type": "object",
      "properties": {
        "manifests": {
          "type": "array",
          "items": {
            "$ref": "#/components/schemas/ManifestEntry"
          }
        },
        "errors": {
          "description": "files that failed to load; the rules they would have replaced stay in use",
          "type": "array",
          "items": {
            "$ref": "#/components/schemas/ManifestProblem"
          }
        }
      },
      "required": [
        "manifests",
        "errors"
      ]
    },
    "server.status": {
      "type": "object",
      "properties": {
        "version": {
          "description": "the daemon's package version",
          "type": "string"
        },
        "protocolVersion": {
          "description": "MAJOR: clients refuse or warn when it differs from theirs",
          "type": "number"
        },
        "protocolMinor": {
          "description": "MINOR: additions only (docs/protocol.md, \"Versions\")",
          "type": "number"
        },
        "pid": {
          "type": "number"
        },
        "uptimeMs": {
          "type": "number"
        },
        "paneCount": {
          "type": "number"
        },
        "socket": {
          "type": "string"
        },
        "connections": {
          "description": "client connections open now, this one included",
          "type": "number"
        },
        "waits": {
          "description": "pending agent.wait calls",
          "type": "number"
        }
      },
      "required": [
        "version",
        "protocolVersion",
        "protocolMinor",
        "pid",
        "uptimeMs",
        "paneCount",
        "socket",
        "connections",
        "waits"
      ]
    },
    "server.stop": {
      "type": "object",
      "properties": {
        "panes": {
          "type": "number"
        },
        "ending": {
          "type": "boolean"
        }
      },
      "required": [
        "panes",
        "ending"
      ]
    }
  },
  "notifications": {
    "event": {
      "type": "object",
      "properties": {
        "cursor": {
          "type": "number"
        },
        "ts": {
          "description": "ms since the epoch",
          "type": "number"
        },
        "kind": {
          "type": "string"
        },
        "pane": {
          "anyOf": [
            {
              "type": "null"
            },
            {
              "type": "object",
              "properties": {
                "id": {
                  "type": "string"
                },
                "name": {
                  "anyOf": [
                    {
                      "type": "null"
                    },
                    {
                      "type": "string"
                    }
                  ]
                }
              },
              "required": [
                "id",
                "name"
              ]
            }
          ]
        },
        "data": {}
      },
      "required": [
        "cursor",
        "ts",
        "kind",
        "pane",
        "data"
      ]
    },
    "events.dropped": {
      "type": "object",
      "properties": {
        "code": {
          "type": "string",
          "const": "slow_consumer"
        },
        "message": {
          "type": "string"
        },
        "cursor": {
          "type": "number"
        }
      },
      "required": [
        "code",
        "message",
        "cursor"
      ]
    },
    "pane.detached": {
      "type": "object",
      "properties": {
        "id": {
          "type": "string"
        },
        "reason": {
          "type": "string",
          "enum": [
            "exited",
            "removed"
          ]
        },
        "exitCode": {
          "anyOf": [
            {
              "type": "null"
            },
            {
              "type": "number"
            }
          ]
        },
        "signal": {
          "anyOf": [
            {
              "type": "null"
            },
            {
              "type": "number"
            }
          ]
        }
      },
      "required": [
        "id",
        "reason",
        "exitCode",
        "signal"
      ]
    },
    "pane.output": {
      "type": "object",
      "properties": {
        "id": {
          "type": "string"
        },
        "data": {
          "type": "string"
        },
        "redraw": {
          "type": "boolean"
        }
      },
      "required": [
        "id",
        "data",
        "redraw"
      ]
    },
    "pane.recorded": {
      "type": "object",
      "properties": {
        "id": {
          "type": "string"
        },
        "code": {
          "type": "string",
          "enum": [
            "o",
            "i"
          ]
        },
        "data": {
          "type": "string"
        },
        "at": {
          "type": "number"
        }
      },
      "required": [
        "id",
        "code",
        "data",
        "at"
      ]
    },
    "pane.recordEnded": {
      "type": "object",
      "properties": {
        "id": {
          "type": "string"
        },
        "reason": {
          "type": "string",
          "enum": [
            "exited",
            "removed",
            "behind"
          ]
        },
        "exitCode": {
          "anyOf": [
            {
              "type": "null"
            },
            {
              "type": "number"
            }
          ]
        },
        "signal": {
          "anyOf": [
            {
              "type": "null"
            },
            {
              "type": "number"
            }
          ]
        }
      },
      "required": [
        "id",
        "reason",
        "exitCode",
        "signal"
      ]
    },
    "server.probe": {
      "type": "object",
      "properties": {},
      "additionalProperties": {
        "not": {}
      }
    }
  },
  "events": {
    "agent.attention": {
      "type": "object",
      "properties": {
        "agent": {
          "anyOf": [
            {
              "type": "null"
            },
            {
              "type": "string"
            }
          ]
        },
        "state": {
          "type": "string",
          "enum": [
            "blocked",
            "done"
          ]
        },
        "from": {
          "type": "string",
          "enum": [
            "idle",
            "working",
            "blocked",
            "done",
            "unknown"
          ]
        },
        "title": {
          "anyOf": [
            {
              "type": "null"
            },
            {
              "type": "string"
            }
          ]
        },
        "message": {
          "type": "string"
        },
        "seq": {
          "type": "number"
        },
        "prompt": {
          "$ref": "#/components/schemas/AgentPrompt"
        }
      },
      "required": [
        "agent",
        "state",
        "from",
        "title",
        "message",
        "seq"
      ]
    },
    "agent.detected": {
      "type": "object",
      "properties": {
        "agent": {
          "type": "string"
        },
        "previous": {
          "anyOf": [
            {
              "type": "null"
            },
            {
              "type": "string"
            }
          ]
        },
        "state": {
          "type": "string",
          "enum": [
            "idle",
            "working",
            "blocked",
            "done",
            "unknown"
          ]
        },
        "seq": {
          "type": "number"
        }
      },
      "required": [
        "agent",
        "previous",
        "state",
        "seq"
      ]
    },
    "agent.promptChanged": {
      "description": "The agent stays blocked and its prompt changed (a new dialog: a new id); seq is the last state change's.",
      "type": "object",
      "properties": {
        "agent": {
          "anyOf": [
            {
              "type": "null"
            },
            {
              "type": "string"
            }
          ]
        },
        "prompt": {
          "$ref": "#/components/schemas/AgentPrompt"
        },
        "seq": {
          "type": "number"
        }
      },
      "required": [
        "agent",
        "prompt",
        "seq"
      ]
    },
    "agent.queueChanged": {
      "description": "The steering queue's count changed; the state did not (seq is the last state change's).",
      "type": "object",
      "properties": {
        "agent": {
          "anyOf": [
            {
              "type": "null"
            },
            {
              "type": "string"
            }
          ]
        },
        "queued": {
          "type": "number"
        },
        "seq": {
          "type": "number"
        }
      },
      "required": [
        "agent",
        "queued",
        "seq"
      ]
    },
    "agent.released": {
      "type": "object",
      "properties": {
        "agent": {
          "anyOf": [
            {
              "type": "null"
            },
            {
              "type": "string"
            }
          ]
        },
        "state": {
          "type": "string",
          "enum": [
            "idle",
            "working",
            "blocked",
            "done",
            "unknown"
          ]
        },
        "seq": {
          "type": "number"
        }
      },
      "required": [
        "agent",
        "state",
        "seq"
      ]
    },
    "agent.seen": {
      "description": "Only the seen flag moved (a blocked agent looked at, say): what a client shows did not change.",
      "type": "object",
      "properties": {
        "agent": {
          "anyOf": [
            {
              "type": "null"
            },
            {
              "type": "string"
            }
          ]
        },
        "state": {
          "type": "string",
          "enum": [
            "idle",
            "working",
            "blocked",
            "done",
            "unknown"
          ]
        },
        "seen": {
          "type": "boolean"
        },
        "seq": {
          "type": "number"
        }
      },
      "required": [
        "agent",
        "state",
        "seen",
        "seq"
      ]
    },
    "agent.stateChanged": {
      "type": "object",
      "properties": {
        "agent": {
          "anyOf": [
            {
              "type": "null"
            },
            {
              "type": "string"
            }
          ]
        },
        "from": {
          "type": "string",
          "enum": [
            "idle",
            "working",
            "blocked",
            "done",
            "unknown"
          ]
        },
        "to": {
          "type": "string",
          "enum": [
            "idle",
            "working",
            "blocked",
            "done",
            "unknown"
          ]
        },
        "rule": {
          "type": "string"
        },
        "source": {
          "type": "string"
        },
        "seen": {
          "type": "boolean"
        },
        "revision": {
          "type": "number"
        },
        "seq": {
          "type": "number"
        },
        "recovered": {
          "description": "A state of a pane taken back after a daemon restart, until it settles: recomputed, not a new turn.",
          "type": "boolean",
          "const": true
        },
        "outputEndedAt": {
          "description": "On a recovered change to a state reached while no daemon ran: when the pty host last saw the pane's output (ms since the epoch).",
          "type": "number"
        },
        "prompt": {
          "$ref": "#/components/schemas/AgentPrompt"
        }
      },
      "required": [
        "agent",
        "from",
        "to",
        "rule",
        "source",
        "seen",
        "revision",
        "seq"
      ]
    },
    "inbox.acknowledged": {
      "description": "Items of the pane left the inbox: acknowledged, or acted on (focus, answer, a state left). A newer item of the pane replaces its older one with no event of its own; a removed pane's go with its `pane.removed`.",
      "type": "object",
      "properties": {
        "ids": {
          "type": "array",
          "items": {
            "type": "number"
          }
        }
      },
      "required": [
        "ids"
      ]
    },
    "inbox.added": {
      "description": "An item entered the attention inbox (once per item, never again, across restarts too): right after its `agent.attention`.",
      "type": "object",
      "properties": {
        "item": {
          "$ref": "#/components/schemas/InboxItem"
        }
      },
      "required": [
        "item"
      ]
    },
    "metadata.changed": {
      "type": "object",
      "properties": {
        "metadata": {
          "anyOf": [
            {
              "type": "null"
            },
            {
              "type": "object",
              "properties": {},
              "additionalProperties": {}
            }
          ]
        }
      },
      "required": [
        "metadata"
      ]
    },
    "pane.created": {
      "type": "object",
      "properties": {
        "id": {
          "description": "'w1:p1': workspace and pane, never reused within a daemon's life",
          "type": "string"
        },
        "name": {
          "anyOf": [
            {
              "type": "null"
            },
            {
              "type": "string"
            }
          ]
        },
        "workspace": {
          "type": "string"
        },
        "state": {
          "type": "string",
          "enum": [
            "running",
            "exited",
            "lost"
          ]
        },
        "command": {
          "type": "string"
        },
        "cwd": {
          "type": "string"
        },
        "pid": {
          "type": "number"
        },
        "cols": {
          "type": "number"
        },
        "rows": {
          "type": "number"
        },
        "createdAt": {
          "type": "number"
        },
        "exitedAt": {
          "anyOf": [
            {
              "type": "null"
            },
            {
              "type": "number"
            }
          ]
        },
        "exitCode": {
          "anyOf": [
            {
              "type": "null"
            },
            {
              "type": "number"
            }
          ]
        },
        "signal": {
          "anyOf": [
            {
              "type": "null"
            },
            {
              "type": "number"
            }
          ]
        },
        "recovered": {
          "description": "Present when the pane outlived a previous daemon and was taken back from the pty host.",
          "type": "boolean",
          "const": true
        },
        "previous": {
          "description": "On a lost pane: its agent, last state and session as the previous daemon knew them.",
          "type": "object",
          "properties": {
            "agent": {
              "anyOf": [
                {
                  "type": "null"
                },
                {
                  "type": "string"
                }
              ]
            },
            "state": {
              "type": "string"
            },
            "session": {
              "anyOf": [
                {
                  "type": "null"
                },
                {
                  "type": "string"
                }
              ]
            }
          },
          "required": [
            "agent",
            "state",
            "session"
          ]
        },
        "external": {
          "description": "An agent started outside Corral, known from its hook reports only (no process, no screen): their source and session.",
          "type": "object",
          "properties": {
            "source": {
              "type": "string"
            },
            "session": {
              "type": "string"
            }
          },
          "required": [
            "source",
            "session"
          ]
        }
      },
      "required": [
        "id",
        "name",
        "workspace",
        "state",
        "command",
        "cwd",
        "pid",
        "cols",
        "rows",
        "createdAt",
        "exitedAt",
        "exitCode",
        "signal"
      ]
    },
    "pane.exited": {
      "type": "object",
      "properties": {
        "exitCode": {
          "anyOf": [
            {
              "type": "null"
            },
            {
              "type": "number"
            }
          ]
        },
        "signal": {
          "anyOf": [
            {
              "type": "null"
            },
            {
              "type": "number"
            }
          ]
        }
      },
      "required": [
        "exitCode",
        "signal"
      ]
    },
    "pane.removed": {
      "type": "object",
      "properties": {
        "exitCode": {
          "anyOf": [
            {
              "type": "null"
            },
            {
              "type": "number"
            }
          ]
        },
        "signal": {
          "anyOf": [
            {
              "type": "null"
            },
            {
              "type": "number"
            }
          ]
        }
      },
      "required": [
        "exitCode",
        "signal"
      ]
    },
    "workspace.stateChanged": {
      "description": "A workspace's rollup state changed (`agent.list` .workspaces); `from` is null for a workspace new to the rollup, `to` null once it has no agent.",
      "type": "object",
      "properties": {
        "workspace": {
          "type": "string"
        },
        "from": {
          "anyOf": [
            {
              "type": "null"
            },
            {
              "type": "string",
              "const": "idle"
            },
            {
              "type": "string",
              "const": "working"
            },
            {
              "type": "string",
              "const": "blocked"
            },
            {
              "type": "string",
              "const": "done"
            },
            {
              "type": "string",
              "const": "unknown"
            }
          ]
        },
        "to": {
          "anyOf": [
            {
              "type": "null"
            },
            {
              "type": "string",
              "const": "idle"
            },
            {
              "type": "string",
              "const": "working"
            },
            {
              "type": "string",
              "const": "blocked"
            },
            {
              "type": "string",
              "const": "done"
            },
            {
              "type": "string",
              "const": "unknown"
            }
          ]
        },
        "counts": {
          "anyOf": [
            {
              "type": "null"
            },
            {
              "type": "object",
              "properties": {
                "idle": {
                  "type": "number"
                },
                "working": {
                  "type": "number"
                },
                "blocked": {
                  "type": "number"
                },
                "done": {
                  "type": "number"
                },
                "unknown": {
                  "type": "number"
                }
              },
              "required": [
                "idle",
                "working",
                "blocked",
                "done",
                "unknown"
              ]
            }
          ]
        }
      },
      "required": [
        "workspace",
        "from",
        "to",
        "counts"
      ]
    }
  },
  "components": {
    "AgentInfo": {
      "description": "One pane's agent as clients see it. Times are ms since the epoch.",
      "type": "object",
      "properties": {
        "id": {
          "description": "the pane id",
          "type": "string"
        },
        "name": {
          "anyOf": [
            {
              "type": "null"
            },
            {
              "type": "string"
            }
          ]
        },
        "workspace": {
          "type": "string"
        },
        "agent": {
          "description": "null when no agent is identified in the pane",
          "anyOf": [
            {
              "type": "null"
            },
            {
              "type": "string"
            }
          ]
        },
        "identity": {
          "type": "string",
          "enum": [
            "process",
            "report",
            "none"
          ]
        },
        "state": {
          "description": "`done` is idle while not seen",
          "type": "string",
          "enum": [
            "idle",
            "working",
            "blocked",
            "done",
            "unknown"
          ]
        },
        "rawState": {
          "type": "string",
          "enum": [
            "idle",
            "working",
            "blocked",
            "unknown"
          ]
        },
        "seen": {
          "type": "boolean"
        },
        "stateSince": {
          "type": "number"
        },
        "revision": {
          "type": "number"
        },
        "rule": {
          "description": "Which precedence entry decided (docs/arbitration.md): screen_rule, report, full_lifecycle, ...",
          "type": "string"
        },
        "source": {
          "description": "The evidence that decided: `screen:<rule id>`, `report:<source>`, `fallback:<reason>`, ...",
          "type": "string"
        },
        "title": {
          "anyOf": [
            {
              "type": "null"
            },
            {
              "type": "string"
            }
          ]
        },
        "progress": {
          "anyOf": [
            {
              "type": "null"
            },
            {
              "$ref": "#/components/schemas/AgentProgress"
            }
          ]
        },
        "queued": {
          "description": "prompts waiting in the pane's steering queue",
          "type": "number"
        },
        "metadata": {
          "description": "display-only metadata reported for the pane",
          "anyOf": [
            {
              "type": "null"
            },
            {
              "type": "object",
              "properties": {},
              "additionalProperties": {}
            }
          ]
        },
        "paneState": {
          "type": "string",
          "enum": [
            "running",
            "exited",
            "lost"
          ]
        },
        "prompt": {
          "$ref": "#/components/schemas/AgentPrompt"
        }
      },
      "required": [
        "id",
        "name",
        "workspace",
        "agent",
        "identity",
        "state",
        "rawState",
        "seen",
        "stateSince",
        "revision",
        "rule",
        "source",
        "title",
        "progress",
        "queued",
        "metadata",
        "paneState"
      ]
    },
    "AgentProgress": {
      "description": "OSC 9;4 progress as last emitted by the pane's program.",
      "type": "object",
      "properties": {
        "state": {
          "type": "number",
          "enum": [
            0,
            4,
            1,
            2,
            3
          ]
        },
        "percent": {
          "anyOf": [
            {
              "type": "null"
            },
            {
              "type": "number"
            }
          ]
        }
      },
      "required": [
        "state",
        "percent"
      ]
    },
    "AgentPrompt": {
      "description": "The prompt a blocked agent shows.",
      "type": "object",
      "properties": {
        "id": {
          "description": "This prompt instance: changes when the dialog changes, and each time the agent is blocked anew.",
          "type": "string"
        },
        "kind": {
          "type": "string",
          "enum": [
            "permission",
            "question",
            "plan",
            "trust",
            "auth",
            "other"
          ]
        },
        "text": {
          "description": "The question as a person reads it, at most a few lines joined by \"\\n\".",
          "type": "string"
        },
        "choices": {
          "type": "array",
          "items": {
            "$ref": "#/components/schemas/PromptChoice"
          }
        },
        "freeText": {
          "description": "The answer is text typed into the form (a free-text question), submitted with Enter.",
          "type": "boolean"
        },
        "note": {
          "description": "Why there are no choices, or what else to know about them; null when there is nothing to add.",
          "anyOf": [
            {
              "type": "null"
            },
            {
              "type": "string"
            }
          ]
        },
        "source": {
          "description": "Where it was read: `screen:<reader id>`, or `report:<source>` when the screen showed no reader's dialog.",
          "type": "string"
        }
      },
      "required": [
        "id",
        "kind",
        "text",
        "choices",
        "freeText",
        "note",
        "source"
      ]
    },
    "ArbiterEvidence": {
      "description": "One piece of evidence as the arbiter sees it now (docs/arbitration.md).",
      "type": "object",
      "properties": {
        "kind": {
          "type": "string",
          "enum": [
            "process",
            "report",
            "screen"
          ]
        },
        "source": {
          "description": "`process`, `screen`, or the report's source.",
          "type": "string"
        },
        "value": {
          "type": "string"
        },
        "ageMs": {
          "anyOf": [
            {
              "type": "null"
            },
            {
              "type": "number"
            }
          ]
        },
        "authoritative": {
          "description": "Whether this evidence may decide now (fresh, bound, for the pane's agent).",
          "type": "boolean"
        },
        "decided": {
          "description": "Whether this evidence made the current decision.",
          "type": "boolean"
        },
        "note": {
          "type": "string"
        }
      },
      "required": [
        "kind",
        "source",
        "value",
        "ageMs",
        "authoritative",
        "decided",
        "note"
      ]
    },
    "ArbiterExplain": {
      "description": "The arbiter's half of `agent.explain`: every evidence source, what decided, what waits, what was refused.",
      "type": "object",
      "properties": {
        "view": {
          "$ref": "#/components/schemas/ArbiterView"
        },
        "decidedBy": {
          "type": "string"
        },
        "precedence": {
          "type": "array",
          "items": {
            "type": "string"
          }
        },
        "generation": {
          "type": "number"
        },
        "observable": {
          "type": "boolean"
        },
        "currentSession": {
          "anyOf": [
            {
              "type": "null"
            },
            {
              "type": "string"
            }
          ]
        },
        "evidence": {
          "type": "array",
          "items": {
            "$ref": "#/components/schemas/ArbiterEvidence"
          }
        },
        "pendingDebounce": {
          "anyOf": [
            {
              "type": "null"
            },
            {
              "type": "object",
              "properties": {
                "state": {
                  "type": "string",
                  "enum": [
                    "idle",
                    "working",
                    "blocked",
                    "unknown"
                  ]
                },
                "since": {
                  "type": "number"
                },
                "deadline": {
                  "type": "number"
                },
                "remainingMs": {
                  "type": "number"
                }
              },
              "required": [
                "state",
                "since",
                "deadline",
                "remainingMs"
              ]
            }
          ]
        },
        "rejections": {
          "type": "array",
          "items": {
            "$ref": "#/components/schemas/ArbiterRejection"
          }
        },
        "windows": {
          "description": "The arbiter's time windows and bounds (docs/arbitration.md), in ms unless named otherwise.",
          "type": "object",
          "properties": {
            "debounceMs": {
              "type": "number"
            },
            "startupSettleMs": {
              "type": "number"
            },
            "staleAfterMs": {
              "type": "number"
            },
            "futureSkewMs": {
              "type": "number"
            },
            "identityExpiryMs": {
              "type": "number"
            },
            "rejectionLogSize": {
              "type": "number"
            },
            "historySize": {
              "type": "number"
            }
          },
          "required": [
            "debounceMs",
            "startupSettleMs",
            "staleAfterMs",
            "futureSkewMs",
            "identityExpiryMs",
            "rejectionLogSize",
            "historySize"
          ]
        }
      },
      "required": [
        "view",
        "decidedBy",
        "precedence",
        "generation",
        "observable",
        "currentSession",
        "evidence",
        "pendingDebounce",
        "rejections",
        "windows"
      ]
    },
    "ArbiterRejection": {
      "description": "A refused report, kept for explain; `reason` is a stable code of docs/reporting.md.",
      "type": "object",
      "properties": {
        "at": {
          "type": "number"
        },
        "source": {
          "type": "string"
        },
        "reason": {
          "type": "string"
        },
        "detail": {
          "type": "string"
        },
        "summary": {
          "type": "string"
        }
      },
      "required": [
        "at",
        "source",
        "reason",
        "detail",
        "summary"
      ]
    },
    "ArbiterView": {
      "description": "The arbiter's effective view of the pane's agent; `rule` is the precedence entry that decided.",
      "type": "object",
      "properties": {
        "agent": {
          "anyOf": [
            {
              "type": "null"
            },
            {
              "type": "string"
            }
          ]
        },
        "identity": {
          "type": "string",
          "enum": [
            "process",
            "report",
            "none"
          ]
        },
        "state": {
          "type": "string",
          "enum": [
            "idle",
            "working",
            "blocked",
            "unknown"
          ]
        },
        "displayed": {
          "type": "string",
          "enum": [
            "idle",
            "working",
            "blocked",
            "done",
            "unknown"
          ]
        },
        "seen": {
          "type": "boolean"
        },
        "rule": {
          "type": "string"
        },
        "source": {
          "type": "string"
        },
        "revision": {
          "type": "number"
        },
        "stateSince": {
          "type": "number"
        },
        "generation": {
          "type": "number"
        }
      },
      "required": [
        "agent",
        "identity",
        "state",
        "displayed",
        "seen",
        "rule",
        "source",
        "revision",
        "stateSince",
        "generation"
      ]
    },
    "DetectionExplain": {
      "description": "Detection's explain, as `agent.explain` answers it in `detection` and `corral agent explain --file\n--json` prints it: the verdict plus every rule in evaluation order.",
      "type": "object",
      "properties": {
        "agent": {
          "type": "string"
        },
        "state": {
          "type": "string",
          "enum": [
            "idle",
            "working",
            "blocked",
            "unknown"
          ]
        },
        "rule": {
          "anyOf": [
            {
              "type": "null"
            },
            {
              "type": "object",
              "properties": {
                "id": {
                  "type": "string"
                },
                "priority": {
                  "type": "number"
                },
                "region": {
                  "type": "string"
                }
              },
              "required": [
                "id",
                "priority",
                "region"
              ]
            }
          ]
        },
        "fallbackReason": {
          "anyOf": [
            {
              "type": "null"
            },
            {
              "type": "string"
            }
          ]
        },
        "visible": {
          "$ref": "#/components/schemas/VisibleFlags"
        },
        "skipStateUpdate": {
          "type": "boolean"
        },
        "evaluatedRules": {
          "type": "array",
          "items": {
            "$ref": "#/components/schemas/EvaluatedRule"
          }
        },
        "manifest": {
          "$ref": "#/components/schemas/ManifestRef"
        }
      },
      "required": [
        "agent",
        "state",
        "rule",
        "fallbackReason",
        "visible",
        "skipStateUpdate",
        "evaluatedRules",
        "manifest"
      ]
    },
    "EvaluatedRule": {
      "type": "object",
      "properties": {
        "id": {
          "type": "string"
        },
        "state": {
          "type": "string",
          "enum": [
            "idle",
            "working",
            "blocked",
            "unknown"
          ]
        },
        "priority": {
          "type": "number"
        },
        "region": {
          "type": "string"
        },
        "matched": {
          "type": "boolean"
        },
        "evidence": {
          "$ref": "#/components/schemas/RuleEvidence"
        }
      },
      "required": [
        "id",
        "state",
        "priority",
        "region",
        "matched",
        "evidence"
      ]
    },
    "EventsSnapshot": {
      "description": "The consistent view a subscriber starts from: taken at the returned cursor.",
      "type": "object",
      "properties": {
        "panes": {
          "type": "array",
          "items": {
            "$ref": "#/components/schemas/PaneInfo"
          }
        },
        "agents": {
          "description": "panes with an identified agent",
          "type": "array",
          "items": {
            "$ref": "#/components/schemas/AgentInfo"
          }
        },
        "stateChangeSeq": {
          "type": "number"
        }
      },
      "required": [
        "panes",
        "agents",
        "stateChangeSeq"
      ]
    },
    "InboxItem": {
      "description": "One thing a person must act on: a pane's agent entered blocked or done. One per pane and turn,\nkept (across restarts too) until acknowledged; a newer one of the same pane replaces it.",
      "type": "object",
      "properties": {
        "id": {
          "description": "Counts up for the daemon's state folder; never reused.",
          "type": "number"
        },
        "pane": {
          "type": "object",
          "properties": {
            "id": {
              "type": "string"
            },
            "name": {
              "anyOf": [
                {
                  "type": "null"
                },
                {
                  "type": "string"
                }
              ]
            }
          },
          "required": [
            "id",
            "name"
          ]
        },
        "agent": {
          "anyOf": [
            {
              "type": "null"
            },
            {
              "type": "string"
            }
          ]
        },
        "state": {
          "type": "string",
          "enum": [
            "blocked",
            "done"
          ]
        },
        "seq": {
          "description": "The state_change_seq and the event cursor of the `agent.attention` that made it.",
          "type": "number"
        },
        "cursor": {
          "type": "number"
        },
        "ts": {
          "description": "When it entered the inbox (ms since the epoch).",
          "type": "number"
        },
        "title": {
          "anyOf": [
            {
              "type": "null"
            },
            {
              "type": "string"
            }
          ]
        },
        "message": {
          "type": "string"
        },
        "prompt": {
          "description": "What the blocked agent asks (docs/protocol.md, \"The prompt\"), read with the blocked state; null for done.",
          "anyOf": [
            {
              "type": "null"
            },
            {
              "$ref": "#/components/schemas/AgentPrompt"
            }
          ]
        }
      },
      "required": [
        "id",
        "pane",
        "agent",
        "state",
        "seq",
        "cursor",
        "ts",
        "title",
        "message",
        "prompt"
      ]
    },
    "ManifestEntry": {
      "type": "object",
      "properties": {
        "id": {
          "type": "string"
        },
        "name": {
          "type": "string"
        },
        "version": {
          "type": "string"
        },
        "source": {
          "description": "bundled, catalog:<origin>, user:<path>",
          "type": "string"
        },
        "layer": {
          "type": "string",
          "enum": [
            "bundled",
            "catalog",
            "user"
          ]
        },
        "file": {
          "type": "string"
        },
        "shadowed": {
          "type": "array",
          "items": {
            "type": "object",
            "properties": {
              "version": {
                "type": "string"
              },
              "source": {
                "type": "string"
              }
            },
            "required": [
              "version",
              "source"
            ]
          }
        }
      },
      "required": [
        "id",
        "name",
        "version",
        "source",
        "layer",
        "file",
        "shadowed"
      ]
    },
    "ManifestProblem": {
      "type": "object",
      "properties": {
        "file": {
          "type": "string"
        },
        "code": {
          "type": "string"
        },
        "message": {
          "type": "string"
        },
        "line": {
          "type": "number"
        },
        "column": {
          "type": "number"
        }
      },
      "required": [
        "file",
        "code",
        "message"
      ]
    },
    "ManifestRef": {
      "description": "The manifest a verdict came from.",
      "type": "object",
      "properties": {
        "id": {
          "type": "string"
        },
        "version": {
          "type": "string"
        },
        "source": {
          "description": "'bundled', 'user:<path>', 'catalog:<source>'",
          "type": "string"
        }
      },
      "required": [
        "id",
        "version",
        "source"
      ]
    },
    "MetadataEntry": {
      "description": "What one source reported for display; fields it left out are absent. Times are ms since the epoch.",
      "type": "object",
      "properties": {
        "title": {
          "type": "string"
        },
        "displayAgent": {
          "type": "string"
        },
        "stateLabel": {
          "type": "string"
        },
        "tokens": {
          "type": "number"
        },
        "reportedAt": {
          "type": "number"
        },
        "expiresAt": {
          "type": "number"
        }
      },
      "required": [
        "reportedAt",
        "expiresAt"
      ]
    },
    "PaneInfo": {
      "description": "A pane as listed: identity, command and lifecycle. Times are ms since the epoch.",
      "type": "object",
      "properties": {
        "id": {
          "description": "'w1:p1': workspace and pane, never reused within a daemon's life",
          "type": "string"
        },
        "name": {
          "anyOf": [
            {
              "type": "null"
            },
            {
              "type": "string"
            }
          ]
        },
        "workspace": {
          "type": "string"
        },
        "state": {
          "type": "string",
          "enum": [
            "running",
            "exited",
            "lost"
          ]
        },
        "command": {
          "type": "string"
        },
        "cwd": {
          "type": "string"
        },
        "pid": {
          "type": "number"
        },
        "cols": {
          "type": "number"
        },
        "rows": {
          "type": "number"
        },
        "createdAt": {
          "type": "number"
        },
        "exitedAt": {
          "anyOf": [
            {
              "type": "null"
            },
            {
              "type": "number"
            }
          ]
        },
        "exitCode": {
          "anyOf": [
            {
              "type": "null"
            },
            {
              "type": "number"
            }
          ]
        },
        "signal": {
          "anyOf": [
            {
              "type": "null"
            },
            {
              "type": "number"
            }
          ]
        },
        "recovered": {
          "description": "Present when the pane outlived a previous daemon and was taken back from the pty host.",
          "type": "boolean",
          "const": true
        },
        "previous": {
          "description": "On a lost pane: its agent, last state and session as the previous daemon knew them.",
          "type": "object",
          "properties": {
            "agent": {
              "anyOf": [
                {
                  "type": "null"
                },
                {
                  "type": "string"
                }
              ]
            },
            "state": {
              "type": "string"
            },
            "session": {
              "anyOf": [
                {
                  "type": "null"
                },
                {
                  "type": "string"
                }
              ]
            }
          },
          "required": [
            "agent",
            "state",
            "session"
          ]
        },
        "external": {
          "description": "An agent started outside Corral, known from its hook reports only (no process, no screen): their source and session.",
          "type": "object",
          "properties": {
            "source": {
              "type": "string"
            },
            "session": {
              "type": "string"
            }
          },
          "required": [
            "source",
            "session"
          ]
        }
      },
      "required": [
        "id",
        "name",
        "workspace",
        "state",
        "command",
        "cwd",
        "pid",
        "cols",
        "rows",
        "createdAt",
        "exitedAt",
        "exitCode",
        "signal"
      ]
    },
    "PaneMetadata": {
      "description": "A pane's display metadata (AgentInfo.metadata): each field from the latest live report that set it,\nand every live source's own report under `sources`.",
      "type": "object",
      "properties": {
        "title": {
          "type": "string"
        },
        "displayAgent": {
          "type": "string"
        },
        "stateLabel": {
          "type": "string"
        },
        "tokens": {
          "type": "number"
        },
        "sources": {
          "type": "object",
          "properties": {},
          "additionalProperties": {
            "$ref": "#/components/schemas/MetadataEntry"
          }
        }
      },
      "required": [
        "sources"
      ]
    },
    "PaneProcess": {
      "description": "The PTY's foreground process group, as read from /proc.",
      "type": "object",
      "properties": {
        "pgid": {
          "type": "number"
        },
        "pid": {
          "description": "the group leader, or the first live member when the leader already exited",
          "type": "number"
        },
        "exe": {
          "anyOf": [
            {
              "type": "null"
            },
            {
              "type": "string"
            }
          ]
        },
        "argv": {
          "type": "array",
          "items": {
            "type": "string"
          }
        },
        "agentHint": {
          "description": "CORRAL_AGENT from a member's environment",
          "type": "string"
        }
      },
      "required": [
        "pgid",
        "pid",
        "exe",
        "argv"
      ]
    },
    "PromptChoice": {
      "description": "One answer the prompt offers, as shown.",
      "type": "object",
      "properties": {
        "id": {
          "description": "Stable within the prompt: the label in lower case, words joined by `-` (`yes`, `no-exit`, `cancel`).",
          "type": "string"
        },
        "label": {
          "description": "The label as the agent draws it, without its number or key hint.",
          "type": "string"
        },
        "keys": {
          "description": "The key names that choose it, typed in order (`[\"1\"]`, `[\"y\"]`, `[\"Escape\"]`, `[\"Down\", \"Enter\"]`); empty when no key is known.",
          "type": "array",
          "items": {
            "type": "string"
          }
        },
        "default": {
          "description": "The choice the cursor is on: Enter takes it.",
          "type": "boolean"
        }
      },
      "required": [
        "id",
        "label",
        "keys",
        "default"
      ]
    },
    "QueuedPrompt": {
      "description": "One prompt waiting in a pane's steering queue.",
      "type": "object",
      "properties": {
        "text": {
          "type": "string"
        },
        "submit": {
          "type": "boolean"
        },
        "queuedAt": {
          "description": "ms since the epoch",
          "type": "number"
        }
      },
      "required": [
        "text",
        "submit",
        "queuedAt"
      ]
    },
    "RuleEvidence": {
      "description": "What one rule saw when detection evaluated it.",
      "type": "object",
      "properties": {
        "matcher": {
          "description": "the matchers that passed, in order; null when the rule did not match",
          "anyOf": [
            {
              "type": "null"
            },
            {
              "type": "string"
            }
          ]
        },
        "regionSize": {
          "description": "lines in the rule's region",
          "type": "number"
        },
        "preview": {
          "description": "the last lines of the region, clipped",
          "type": "string"
        },
        "time": {
          "description": "the rule's time conditions as judged (motion, quiet); null when it has none",
          "anyOf": [
            {
              "type": "null"
            },
            {
              "type": "string"
            }
          ]
        }
      },
      "required": [
        "matcher",
        "regionSize",
        "preview",
        "time"
      ]
    },
    "VisibleFlags": {
      "description": "Which visible-state flags the deciding rule set (docs/manifests.md).",
      "type": "object",
      "properties": {
        "idle": {
          "type": "boolean"
        },
        "blocker": {
          "type": "boolean"
        },
        "working": {
          "type": "boolean"
        }
      },
      "required": [
        "idle",
        "blocker",
        "working"
      ]
    },
    "WorkspaceRollup": {
      "type": "object",
      "properties": {
        "workspace": {
          "type": "string"
        },
        "state": {
          "description": "The most pressing state among the workspace's listed agents (ROLLUP_ORDER).",
          "type": "string",
          "enum": [
            "idle",
            "working",
            "blocked",
            "done",
            "unknown"
          ]
        },
        "counts": {
          "type": "object",
          "properties": {
            "idle": {
              "type": "number"
            },
            "working": {
              "type": "number"
            },
            "blocked": {
              "type": "number"
            },
            "done": {
              "type": "number"
            },
            "unknown": {
              "type": "number"
            }
          },
          "required": [
            "idle",
            "working",
            "blocked",
            "done",
            "unknown"
          ]
        }
      },
      "required": [
        "workspace",
        "state",
        "counts"
      ]
    }
  }
};
