console.log(process.version);
