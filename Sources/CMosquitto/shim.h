#ifndef SCREENPLAY_CMOSQUITTO_SHIM_H
#define SCREENPLAY_CMOSQUITTO_SHIM_H

// libmosquitto (Debian's libmosquitto-dev) for `play --mqtt`: a box's status,
// proof of play and commands over an MQTT broker. Only MQTTConnection.swift,
// MQTTHandle.swift and MosquittoWords.swift import this module.
#include <mosquitto.h>

#endif
