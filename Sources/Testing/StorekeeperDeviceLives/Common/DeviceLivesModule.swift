// Placeholder until the driver lands (issue 25); replaced by the device lives' own files.
enum DeviceLivesModule {}
